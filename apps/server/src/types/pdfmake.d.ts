// pdfmake 0.2's server entry: a printer over pdfkit. Only what the toolkit uses is declared.
declare module 'pdfmake' {
  import type { Readable } from 'node:stream';

  interface PdfKitDocument extends Readable {
    end(): void;
  }

  export default class PdfPrinter {
    constructor(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>);
    createPdfKitDocument(definition: Record<string, unknown>): PdfKitDocument;
  }
}
