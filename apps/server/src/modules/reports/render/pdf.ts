import PdfPrinter from 'pdfmake';

const printer = new PdfPrinter({
  // The PDF standard fonts: nothing to ship or download.
  Helvetica: {
    normal: 'Helvetica',
    bold: 'Helvetica-Bold',
    italics: 'Helvetica-Oblique',
    bolditalics: 'Helvetica-BoldOblique',
  },
});

/** Renders a pdfmake document definition to bytes. */
export function renderPdf(definition: Record<string, unknown>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const document = printer.createPdfKitDocument({
      pageSize: 'A4',
      pageOrientation: 'landscape',
      pageMargins: [32, 40, 32, 40],
      defaultStyle: { font: 'Helvetica', fontSize: 9 },
      ...definition,
    });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
    document.end();
  });
}
