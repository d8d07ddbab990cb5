import { PassThrough } from 'node:stream';
import { neutralize } from './spreadsheet-safety.js';

export type CellValue = string | number | boolean | Date | null | undefined;
export interface Column {
  header: string;
  width: number;
}
export interface SheetWriter {
  row(values: CellValue[]): void;
}

/** Excel sheet names: at most 31 characters, none of []:*?/\, unique in the workbook (case-insensitive). */
export function sheetName(name: string, taken: Set<string>, fallback = 'Sheet'): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || fallback;
  let candidate = base;
  for (let counter = 2; taken.has(candidate.toLowerCase()); counter++) candidate = `${base.slice(0, 27)} (${counter})`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * A workbook written with ExcelJS's streaming writer: each row is committed as it is added, so memory
 * holds the finished bytes, not a model of every cell. Every sheet gets its header row frozen, filters on
 * it and the widths given; dates stay dates. `write` adds the sheets, one after the other.
 */
export async function streamWorkbook(
  write: (sheet: (name: string, columns: Column[]) => SheetWriter & { done(): void }) => Promise<void> | void,
  created = new Date(),
): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // ExcelJS loads with the first workbook: a process that writes none never reads its hundreds of modules.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  workbook.creator = 'CE Toolkit';
  workbook.created = created;
  const taken = new Set<string>();
  await write((name, columns) => {
    const worksheet = workbook.addWorksheet(sheetName(name, taken), { views: [{ state: 'frozen', ySplit: 1 }] });
    worksheet.columns = columns.map((column, index) => ({ ...column, key: String(index) }));
    worksheet.getRow(1).font = { bold: true };
    worksheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
    return {
      row: (values) => worksheet.addRow(values.map((value) => neutralize(value ?? null))).commit(),
      done: () => worksheet.commit(),
    };
  });
  await workbook.commit();
  await ended;
  return Buffer.concat(chunks);
}
