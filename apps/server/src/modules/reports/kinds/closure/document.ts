import {
  BorderStyle,
  Document,
  HeadingLevel,
  Packer,
  PageBreak,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableOfContents,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { barChartSvg } from '../../../../report-kit/charts.js';
import { pdfTable, renderReportPdf } from '../../../../report-kit/pdf.js';

/** What a closure document says, written once and rendered as Word and as PDF. */
export interface ClosureDocument {
  title: string;
  organization: string;
  accountGroups: string[];
  author: string;
  date: Date;
  engagementName?: string;
  customerContact?: string;
  notes?: string;
  summary: string[];
  scope: string[];
  deployed: { title: string; columns: string[]; rows: string[][] }[];
  chart: { title: string; categories: string[]; values: number[] };
  findings: { title: string; status: string; detail: string; remediation: string }[];
  outstanding: string[];
  owners: { accountGroup: string; owners: string }[];
}

/** Tables in the documents list this many rows; the rest is counted ("and N more"). */
export const DOCUMENT_ROWS = 300;
const day = (date: Date) => date.toISOString().slice(0, 10);
const SIGN_OFF = ['Name', 'Role', 'Signature', 'Date'];

// Word -------------------------------------------------------------------------------------------------

const cell = (text: string, header = false) =>
  new TableCell({
    children: [new Paragraph({ children: [new TextRun({ text, bold: header, size: 18 })] })],
    ...(header ? { shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F1F5F9' } } : {}),
  });

function wordTable(columns: string[], rows: string[][]): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({ tableHeader: true, children: columns.map((column) => cell(column, true)) }),
      ...rows.slice(0, DOCUMENT_ROWS).map((row) => new TableRow({ children: row.map((value) => cell(value)) })),
    ],
  });
}

const heading = (text: string, level: (typeof HeadingLevel)[keyof typeof HeadingLevel] = HeadingLevel.HEADING_1) =>
  new Paragraph({ text, heading: level, spacing: { before: 240, after: 120 } });
const paragraph = (text: string) => new Paragraph({ children: [new TextRun(text)], spacing: { after: 120 } });
const more = (rows: unknown[]) =>
  rows.length > DOCUMENT_ROWS ? [paragraph(`And ${rows.length - DOCUMENT_ROWS} more.`)] : [];

/** A bar per category drawn with block characters: Word shows it without an embedded image. */
function wordChart(chart: ClosureDocument['chart']): Table {
  const most = Math.max(1, ...chart.values);
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    borders: {
      top: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
      bottom: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
      left: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
      right: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
      insideHorizontal: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
      insideVertical: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
    },
    rows: chart.categories.map(
      (category, index) =>
        new TableRow({
          children: [
            cell(category),
            new TableCell({
              children: [
                new Paragraph({
                  children: [
                    new TextRun({
                      text: '█'.repeat(
                        Math.max(chart.values[index] ? 1 : 0, Math.round(((chart.values[index] ?? 0) / most) * 40)),
                      ),
                      color: '1D4ED8',
                      size: 18,
                    }),
                    new TextRun({ text: ` ${chart.values[index] ?? 0}`, size: 18 }),
                  ],
                }),
              ],
            }),
          ],
        }),
    ),
  });
}

/** The document as an editable Word file: cover, contents, then each section. */
export function closureDocx(document: ClosureDocument): Promise<Buffer> {
  const cover = [
    new Paragraph({
      children: [new TextRun({ text: document.title, bold: true, size: 48 })],
      spacing: { before: 2400, after: 240 },
    }),
    new Paragraph({ children: [new TextRun({ text: document.organization, size: 32 })] }),
    ...(document.engagementName ? [paragraph(`Engagement: ${document.engagementName}`)] : []),
    paragraph(`Account groups: ${document.accountGroups.join(', ')}`),
    paragraph(`Author: ${document.author}`),
    ...(document.customerContact ? [paragraph(`Customer contact: ${document.customerContact}`)] : []),
    paragraph(`Date: ${day(document.date)}`),
    new Paragraph({ children: [new PageBreak()] }),
    new TableOfContents('Contents', { hyperlink: true, headingStyleRange: '1-2' }),
    new Paragraph({ children: [new PageBreak()] }),
  ];
  const body = [
    heading('Executive summary'),
    ...document.summary.map(paragraph),
    heading('Scope'),
    ...document.scope.map(paragraph),
    heading('What was deployed'),
    heading(document.chart.title, HeadingLevel.HEADING_2),
    wordChart(document.chart),
    ...document.deployed.flatMap((table) => [
      heading(`${table.title} (${table.rows.length})`, HeadingLevel.HEADING_2),
      table.rows.length ? wordTable(table.columns, table.rows) : paragraph('None.'),
      ...more(table.rows),
    ]),
    heading('Health findings'),
    document.findings.length
      ? wordTable(
          ['Finding', 'Status', 'Detail', 'Remediation'],
          document.findings.map((finding) => [finding.title, finding.status, finding.detail, finding.remediation]),
        )
      : paragraph('No finding.'),
    heading('Outstanding items and risks'),
    ...(document.outstanding.length ? document.outstanding.map(paragraph) : [paragraph('None.')]),
    heading('Handover'),
    wordTable(
      ['Account group', 'Owners'],
      document.owners.map((owner) => [owner.accountGroup, owner.owners]),
    ),
    ...(document.notes ? [heading('Notes'), ...document.notes.split(/\r?\n/).map(paragraph)] : []),
    heading('Sign-off'),
    wordTable(SIGN_OFF, [
      [document.customerContact ?? '', 'Customer contact', '', ''],
      [document.author, 'Engagement lead', '', ''],
    ]),
  ];
  const word = new Document({
    creator: 'CE Toolkit',
    title: `${document.title}: ${document.organization}`,
    features: { updateFields: true },
    styles: { default: { document: { run: { font: 'Calibri', size: 20 } } } },
    sections: [{ properties: {}, children: [...cover, ...body] }],
  });
  return Packer.toBuffer(word);
}

// PDF --------------------------------------------------------------------------------------------------

export function closurePdf(document: ClosureDocument): Promise<Buffer> {
  const title = (text: string, level: 1 | 2 = 1) => ({
    text,
    fontSize: level === 1 ? 15 : 12,
    bold: true,
    tocItem: level === 1,
    margin: [0, level === 1 ? 12 : 8, 0, 4],
  });
  const table = (columns: string[], rows: string[][]) =>
    pdfTable(columns, rows, { maxRows: DOCUMENT_ROWS, margin: [0, 2, 0, 6] });
  const rest = (rows: unknown[]) =>
    rows.length > DOCUMENT_ROWS ? [{ text: `And ${rows.length - DOCUMENT_ROWS} more.` }] : [];
  return renderReportPdf({
    title: document.title,
    organization: document.organization,
    cover: [
      ...(document.engagementName ? [{ text: `Engagement: ${document.engagementName}` }] : []),
      { text: `Account groups: ${document.accountGroups.join(', ')}`, margin: [0, 6, 0, 0] },
      { text: `Author: ${document.author}` },
      ...(document.customerContact ? [{ text: `Customer contact: ${document.customerContact}` }] : []),
      { text: `Date: ${day(document.date)}` },
    ],
    body: [
      { ...title('Executive summary'), pageBreak: 'before' },
      ...document.summary.map((text) => ({ text, margin: [0, 0, 0, 4] })),
      title('Scope'),
      ...document.scope.map((text) => ({ text, margin: [0, 0, 0, 4] })),
      title('What was deployed'),
      {
        svg: barChartSvg({
          title: document.chart.title,
          categories: document.chart.categories,
          series: [{ name: 'Count', values: document.chart.values }],
          width: 520,
          height: 260,
        }),
        width: 480,
      },
      ...document.deployed.flatMap((deployed) => [
        title(`${deployed.title} (${deployed.rows.length})`, 2),
        deployed.rows.length ? table(deployed.columns, deployed.rows) : { text: 'None.' },
        ...rest(deployed.rows),
      ]),
      title('Health findings'),
      document.findings.length
        ? table(
            ['Finding', 'Status', 'Detail', 'Remediation'],
            document.findings.map((finding) => [finding.title, finding.status, finding.detail, finding.remediation]),
          )
        : { text: 'No finding.' },
      title('Outstanding items and risks'),
      ...(document.outstanding.length
        ? document.outstanding.map((text) => ({ text, margin: [0, 0, 0, 3] }))
        : [{ text: 'None.' }]),
      title('Handover'),
      table(
        ['Account group', 'Owners'],
        document.owners.map((owner) => [owner.accountGroup, owner.owners]),
      ),
      ...(document.notes ? [title('Notes'), { text: document.notes }] : []),
      title('Sign-off'),
      {
        table: {
          widths: ['*', '*', '*', 80],
          heights: [16, 40, 40],
          body: [
            SIGN_OFF.map((text) => ({ text, bold: true, fillColor: '#f1f5f9' })),
            [document.customerContact ?? '', 'Customer contact', '', ''],
            [document.author, 'Engagement lead', '', ''],
          ],
        },
      },
    ],
  });
}
