/**
 * bench:timesheet - a 10 MB hours workbook (5,000 rows, the most the tracker takes, with long work
 * descriptions) read by the product's parser (the zip check, the streaming reader and the spec's rules, on
 * its worker thread) beside a plain exceljs read of the same bytes, three times each after a warm-up; the
 * medians are compared. rss-mb is the process's peak resident memory when the product's reads are done (the
 * parser's thread included), before the plain read runs.
 * Last line: `timesheet: time-ratio=<x.xx> rss-mb=<n>` (goals: time-ratio <= 1.30, rss-mb <= 500).
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { TRACKER_COLUMNS, TRACKER_LIMITS, weekStarts } from '@ce/contract';
import { SheetParser } from '../apps/server/src/modules/tracker/sheet-parser.js';

const TARGET_BYTES = 10 * 1024 * 1024 - 64 * 1024;

/** Written with the streaming writer, so making the file does not weigh on the memory measured. */
async function workbookOf(rows: number, wordsPerRow: number): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Hours');
  sheet.addRow([...TRACKER_COLUMNS]).commit();
  const week = weekStarts().at(-1) ?? '2026-01-05';
  for (let index = 0; index < rows; index++) {
    // Random words: text that compresses the way real notes do not, so the file reaches its size.
    const words = Array.from({ length: wordsPerRow }, () => randomBytes(6).toString('base64url'));
    sheet
      .addRow([
        `ENG-${1001 + (index % 40)}`,
        'Meeting',
        new Date(`${week}T00:00:00Z`),
        `CASE-${index}`,
        words.join(' '),
        1 + (index % 8) / 4,
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** The largest file under 10 MB the tracker takes: all its rows, descriptions sized to fill it. */
async function tenMegabytes(): Promise<Buffer> {
  const rows = TRACKER_LIMITS.rows;
  let words = 40;
  let file = await workbookOf(rows, words);
  for (let pass = 0; pass < 2; pass++) {
    words = Math.floor((words * TARGET_BYTES) / file.length);
    file = await workbookOf(rows, words);
  }
  return file;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const file = await tenMegabytes();
console.log(`file: ${(file.length / 1024 / 1024).toFixed(2)} MB, ${TRACKER_LIMITS.rows} rows`);
const parser = new SheetParser({ timeoutMs: 120_000, memoryMb: 384 });
const week = weekStarts().at(-1) ?? '';
const today = new Date().toISOString().slice(0, 10);
// The product first (its thread started and warmed once), so the peak memory it reaches is its own; then
// the plain read of the same bytes, warmed the same way.
const product: number[] = [];
await parser.parse(file, week, today, 'bench');
for (let round = 0; round < 3; round++) {
  const start = performance.now();
  const parsed = await parser.parse(file, week, today, 'bench');
  product.push(performance.now() - start);
  if (parsed.data.length !== TRACKER_LIMITS.rows) throw new Error(`the parser read ${parsed.data.length} rows`);
}
await parser.close();
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);

const plain: number[] = [];
await new ExcelJS.Workbook().xlsx.load(file as unknown as ArrayBuffer);
for (let round = 0; round < 3; round++) {
  const start = performance.now();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  plain.push(performance.now() - start);
  if (workbook.worksheets[0]?.rowCount !== TRACKER_LIMITS.rows + 1) throw new Error('exceljs read another row count');
}
console.log(
  `product ${product.map((ms) => ms.toFixed(0)).join(', ')} ms; exceljs ${plain.map((ms) => ms.toFixed(0)).join(', ')} ms`,
);
console.log(`timesheet: time-ratio=${(median(product) / median(plain)).toFixed(2)} rss-mb=${rssMb}`);
