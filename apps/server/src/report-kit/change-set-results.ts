import { neutralize } from './spreadsheet-safety.js';
import { streamWorkbook, type Column } from './stream-workbook.js';

/** One row of a change set's results file. */
export interface ResultRow {
  accountGroup: string;
  kind: string;
  name: string;
  action: string;
  status: string;
  id: string | null;
  note: string | null;
  error: string | null;
  dropped: string;
}

const COLUMNS: (Column & { key: keyof ResultRow })[] = [
  { header: 'Account group', width: 28, key: 'accountGroup' },
  { header: 'Item', width: 18, key: 'kind' },
  { header: 'Name', width: 40, key: 'name' },
  { header: 'Action', width: 16, key: 'action' },
  { header: 'Status', width: 10, key: 'status' },
  { header: 'Id', width: 16, key: 'id' },
  { header: 'Note', width: 40, key: 'note' },
  { header: 'Error', width: 40, key: 'error' },
  { header: 'Dropped references', width: 50, key: 'dropped' },
];

/** A change set's results as a workbook (one sheet, header frozen and filtered, text formula-safe). */
export function resultsWorkbook(title: string, rows: Iterable<ResultRow>): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const writer = sheet(title, COLUMNS);
    for (const row of rows) writer.row(COLUMNS.map((column) => row[column.key]));
    writer.done();
  });
}

/** A CSV field (RFC 4180): formula-safe, quoted when it holds a quote, a comma or a line break. */
function csvField(value: string | null): string {
  const text = String(neutralize(value ?? ''));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A change set's results as CSV (UTF-8 with a byte-order mark, so spreadsheet programs read accents). */
export function resultsCsv(rows: Iterable<ResultRow>): Buffer {
  const lines = [COLUMNS.map((column) => csvField(column.header)).join(',')];
  for (const row of rows) lines.push(COLUMNS.map((column) => csvField(row[column.key])).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
