import Papa from 'papaparse';
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

/**
 * A change set's results as CSV (RFC 4180, CRLF; UTF-8 with a byte-order mark, so spreadsheet programs read
 * accents): quoted where needed, and text a spreadsheet would run as a formula disarmed.
 */
export function resultsCsv(rows: Iterable<ResultRow>): Buffer {
  const csv = Papa.unparse(
    {
      fields: COLUMNS.map((column) => column.header),
      data: [...rows].map((row) => COLUMNS.map((column) => neutralize(row[column.key] ?? ''))),
    },
    { newline: '\r\n' },
  );
  return Buffer.from(`\uFEFF${csv}\r\n`, 'utf8');
}

/** A change set's results file by name (no extension) and format: XLSX (default) or CSV. */
export async function resultsFile(name: string, rows: ResultRow[], format: 'xlsx' | 'csv') {
  return format === 'csv'
    ? { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', body: resultsCsv(rows) }
    : {
        filename: `${name}.xlsx`,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: await resultsWorkbook('Results', rows),
      };
}
