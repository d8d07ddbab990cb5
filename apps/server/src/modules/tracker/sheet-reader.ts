import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { TRACKER_LIMITS, TRACKER_MESSAGES } from '@ce/contract';

/** A file the tracker refuses, with the message the user sees (always a 4xx). */
export class SheetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetError';
  }
}

export type SheetKind = 'xlsx' | 'xls' | 'csv';
/** A cell as read: text, a number, a date, a boolean, or nothing. */
export type Cell = string | number | boolean | Date | null;

/** Unzipped, an hours workbook is a few megabytes; more is a zip bomb or not an hours file. */
const MAX_UNZIPPED_BYTES = 120 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 2_000;

const startsWith = (bytes: Buffer, ...values: number[]) => values.every((value, index) => bytes[index] === value);

/** What the bytes are: a zip holding a workbook, the old compound file format, or text. Never the name. */
export function detectKind(bytes: Buffer): SheetKind {
  if (bytes.length === 0) throw new SheetError(TRACKER_MESSAGES.emptyFile);
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) {
    if (!zipEntries(bytes).some((entry) => entry.name === 'xl/workbook.xml'))
      throw new SheetError(TRACKER_MESSAGES.wrongType);
    return 'xlsx';
  }
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'xls';
  if (looksLikeText(bytes)) return 'csv';
  throw new SheetError(TRACKER_MESSAGES.wrongType);
}

/** Text: no NUL or other binary control bytes in the first 64 KB, and not an HTML page. */
function looksLikeText(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 64 * 1024);
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) return false;
  const start = head
    .toString('utf8', 0, 512)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return !(start.startsWith('<!doctype') || start.startsWith('<html') || start.startsWith('<?xml'));
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The zip's central directory, checked: no Zip64, a sane number of entries, sizes that add up. */
function zipEntries(bytes: Buffer): ZipEntry[] {
  const invalid = () => new SheetError(TRACKER_MESSAGES.emptyFile);
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 22 - 65_535); offset--) {
    if (bytes.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw invalid();
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  if (count > MAX_ZIP_ENTRIES || offset >= bytes.length) throw invalid();
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) throw invalid();
    const entry = {
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size: bytes.readUInt32LE(offset + 24),
      name: bytes.toString('utf8', offset + 46, offset + 46 + bytes.readUInt16LE(offset + 28)),
      localOffset: bytes.readUInt32LE(offset + 42),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw invalid();
    total += entry.size;
    if (total > MAX_UNZIPPED_BYTES) throw new SheetError('The file unpacks to far more than an hours sheet holds.');
    entries.push(entry);
    offset += 46 + bytes.readUInt16LE(offset + 28) + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  return entries;
}

/**
 * Inflates every entry once with a cap at its declared size: a zip whose entries unpack to more than they
 * say (a bomb with a lying directory) or do not unpack at all is refused before the workbook reader sees it.
 */
function verifyZip(bytes: Buffer): void {
  for (const entry of zipEntries(bytes)) {
    const header = entry.localOffset;
    if (header + 30 > bytes.length || bytes.readUInt32LE(header) !== 0x04034b50)
      throw new SheetError(TRACKER_MESSAGES.emptyFile);
    const start = header + 30 + bytes.readUInt16LE(header + 26) + bytes.readUInt16LE(header + 28);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) throw new SheetError(TRACKER_MESSAGES.emptyFile);
    if (entry.method === 0) continue;
    if (entry.method !== 8) throw new SheetError(TRACKER_MESSAGES.emptyFile);
    try {
      inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
    } catch {
      throw new SheetError(TRACKER_MESSAGES.emptyFile);
    }
  }
}

/** The rows of the file, each a list of cells; the first row holding the expected headers comes first. */
export async function readRows(bytes: Buffer, kind: SheetKind): Promise<Cell[][]> {
  if (kind === 'csv') return readCsv(bytes);
  if (kind === 'xls') return readXls(bytes);
  verifyZip(bytes);
  return readXlsx(bytes);
}

const tooMany = () =>
  new SheetError(
    `The file has more than ${TRACKER_LIMITS.rows.toLocaleString('en-US')} rows: upload one week of hours at a time.`,
  );

/** The streaming reader: rows of the first sheet whose first non-empty row names the tracker's columns. */
async function readXlsx(bytes: Buffer): Promise<Cell[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  try {
    for await (const sheet of reader) {
      const rows: Cell[][] = [];
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellOf);
        // Rows keep their place: blank ones in between stay blank so row numbers match the file.
        while (rows.length < row.number - 1) rows.push([]);
        rows.push(values);
        if (rows.length > TRACKER_LIMITS.rows + 1) throw tooMany();
      }
      if (hasHeader(rows)) return rows;
    }
  } catch (error) {
    if (error instanceof SheetError) throw error;
    throw new SheetError(TRACKER_MESSAGES.emptyFile);
  }
  throw new SheetError(TRACKER_MESSAGES.noValidData);
}

async function readXls(bytes: Buffer): Promise<Cell[][]> {
  // SheetJS only for the old binary format, loaded when one arrives (the size limit has applied already).
  const XLSX = await import('@e965/xlsx');
  let workbook;
  try {
    workbook = XLSX.read(bytes, { type: 'buffer', cellDates: true, sheetRows: TRACKER_LIMITS.rows + 2, dense: true });
  } catch {
    throw new SheetError(TRACKER_MESSAGES.emptyFile);
  }
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet) continue;
    const rows = XLSX.utils.sheet_to_json<Cell[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
    if (hasHeader(rows)) {
      const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1');
      if (range.e.r > TRACKER_LIMITS.rows) throw tooMany();
      return rows.map((row) => row.map((cell) => (cell === undefined ? null : cell)));
    }
  }
  throw new SheetError(TRACKER_MESSAGES.noValidData);
}

function readCsv(bytes: Buffer): Cell[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = bytes.toString('latin1');
  }
  text = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: false,
  });
  if (parsed.data.length > TRACKER_LIMITS.rows + 2) throw tooMany();
  const rows = parsed.data.map((row) => row.map((cell) => (cell === '' ? null : cell)));
  if (!hasHeader(rows))
    throw new SheetError(rows.some((row) => row.length) ? TRACKER_MESSAGES.noValidData : TRACKER_MESSAGES.emptyFile);
  return rows;
}

/** Header cells are matched without case, spaces or underscores: "Engagement ID" is Engagement_ID. */
export const headerKey = (value: unknown) =>
  String(value ?? '')
    .replace(/[\s_-]+/g, '')
    .toLowerCase();

function hasHeader(rows: Cell[][]): boolean {
  const first = rows.find((row) => row.some((cell) => cell !== null && String(cell).trim() !== ''));
  return first?.some((cell) => headerKey(cell) === 'engagementid') ?? false;
}

/** exceljs cell values (formulas, rich text, hyperlinks, errors) as plain cells. */
function cellOf(value: ExcelJS.CellValue | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (typeof value === 'object') {
    if ('result' in value) return cellOf(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return null;
  }
  return null;
}
