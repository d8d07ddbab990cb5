import type PdfPrinter from 'pdfmake';

type Printer = InstanceType<typeof PdfPrinter>;

/** pdfmake, loaded with the first PDF (a process that renders none never reads it). */
let printer: Promise<Printer> | undefined;
const printerOf = () =>
  (printer ??= import('pdfmake').then(
    ({ default: Printer }) =>
      new Printer({
        // The PDF standard fonts: nothing to ship or download.
        Helvetica: {
          normal: 'Helvetica',
          bold: 'Helvetica-Bold',
          italics: 'Helvetica-Oblique',
          bolditalics: 'Helvetica-BoldOblique',
        },
      }),
  ));

/** Renders a pdfmake document definition to bytes. */
export async function renderPdf(definition: Record<string, unknown>): Promise<Buffer> {
  const printer = await printerOf();
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

export interface ReportPdf {
  /** The document's title: on the cover and in the file's properties. */
  title: string;
  organization: string;
  /** The cover's lines under the title and the organization. */
  cover: Record<string, unknown>[];
  /** What follows the table of contents. */
  body: unknown[];
}

/**
 * A report's PDF in the kit's frame: portrait A4, a cover (title, organization, the report's own lines),
 * a table of contents of the entries marked `tocItem`, the body, and page numbers in the footer.
 */
export function renderReportPdf({ title, organization, cover, body }: ReportPdf): Promise<Buffer> {
  return renderPdf({
    info: { title: `${title}: ${organization}`, creator: 'CE Toolkit' },
    pageOrientation: 'portrait',
    footer: (page: number, pages: number) => ({
      text: `${page} / ${pages}`,
      alignment: 'center',
      fontSize: 8,
      color: '#64748b',
    }),
    content: [
      { text: title, fontSize: 24, bold: true, margin: [0, 160, 0, 8] },
      { text: organization, fontSize: 16 },
      ...cover,
      { toc: { title: { text: 'Contents', fontSize: 15, bold: true } }, pageBreak: 'before' },
      ...body,
    ],
  });
}

/** A table with a shaded header row, at most `maxRows` rows of the body. */
export function pdfTable(
  columns: string[],
  rows: string[][],
  { maxRows, margin }: { maxRows: number; margin: [number, number, number, number] },
): Record<string, unknown> {
  return {
    table: {
      headerRows: 1,
      widths: columns.map(() => '*'),
      body: [columns.map((text) => ({ text, bold: true, fillColor: '#f1f5f9' })), ...rows.slice(0, maxRows)],
    },
    layout: 'lightHorizontalLines',
    fontSize: 8,
    margin,
  };
}
