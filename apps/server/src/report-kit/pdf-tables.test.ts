import { describe, expect, it } from 'vitest';
import { pdfPages } from '../../test/support/pdf-text.js';
import { barChartSvg } from './charts.js';
import { PDF_CONTENT_WIDTH, pdfTable, renderPdf, textWidth } from './pdf.js';

/** The deployment summary's fourteen columns: wider than a landscape page with each header on one line. */
const COLUMNS = [
  'Account group',
  'Enterprise agents online',
  'Enterprise agents offline',
  'Enterprise agents disabled',
  'Cloud agents used',
  'http-server tests',
  'page-load tests',
  'dns-server tests',
  'dns-trace tests',
  'agent-to-server tests',
  'bgp tests',
  'Other tests',
  'Tests enabled',
  'Tests disabled',
];
const ROWS = [
  ['Acme - Production', '4', '0', '0', '20', '6', '2', '2', '2', '2', '2', '0', '12', '4'],
  ['Acme - Staging', '3', '1', '0', '20', '2', '2', '2', '2', '2', '3', '0', '12', '0'],
];

describe('PDF tables', () => {
  it('measure text as Helvetica does', () => {
    expect(textWidth('Days since sign-in', 8, true)).toBeCloseTo(70.25, 1);
    expect(textWidth('mmm', 10)).toBeCloseTo(25, 0);
  });

  it('show every column of a table wider than the page, in parts that repeat the key column', async () => {
    const node = pdfTable(COLUMNS, ROWS, { maxRows: 10, margin: [0, 4, 0, 4], width: PDF_CONTENT_WIDTH.landscape });
    const parts = (node.stack as { table: { body: unknown[][] } }[] | undefined) ?? [];
    expect(parts.length).toBeGreaterThan(1);
    const pdf = await renderPdf({ pageOrientation: 'landscape', content: [node] });
    const lines = pdfPages(pdf).flat();
    const headers = lines.filter((line) => line.startsWith('Account group | '));
    expect(headers).toHaveLength(parts.length);
    // Every header once, whole on one line (none cut at the page's edge, none wrapped), the key in each part.
    expect(headers.flatMap((line) => line.split(' | ').slice(1))).toEqual(COLUMNS.slice(1));
    // Each row: its key starts a line in each part, and its values, all of them, follow in order.
    for (const row of ROWS) {
      const mine = lines.filter((line) => line.startsWith(`${row[0]} | `));
      expect(mine).toHaveLength(parts.length);
      expect(mine.flatMap((line) => line.split(' | ').slice(1))).toEqual(row.slice(1));
    }
  });

  it('keep a table that fits in one piece', () => {
    const node = pdfTable(['Check', 'Status'], [['Inactive users', 'warn']], { maxRows: 10, margin: [0, 4, 0, 4] });
    expect(node.stack).toBeUndefined();
    expect((node.table as { body: unknown[] }).body).toHaveLength(2);
  });
});

describe('horizontal bar charts', () => {
  it('label every bar by its category, however long and many the names', async () => {
    const categories = [
      'Inactive users',
      'Login frequency of administrators',
      'Alerts active most of the time',
      'Alert rules triggered too often',
      'Tests with a growing number of alerts',
      'Raised time limits left in place',
      'Unused tests',
      'Dashboards with fewer than two widgets',
      'Cloud units projected against the plan',
    ];
    const svg = barChartSvg({
      title: 'Items found per check',
      categories,
      series: [{ name: 'Items', values: categories.map((_, index) => index * 3) }],
      horizontal: true,
      width: 760,
      height: 80 + 28 * categories.length,
    });
    const lines = pdfPages(await renderPdf({ content: [{ svg, width: PDF_CONTENT_WIDTH.portrait }] })).flat();
    const labels = lines.map((line) => line.split(' | ')[0]);
    // Top to bottom in their order, each on its line (with its bar's value).
    expect(labels.filter((label) => categories.includes(label ?? ''))).toEqual(categories);
  });
});
