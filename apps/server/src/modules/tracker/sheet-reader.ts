import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { TRACKER_LIMITS, TRACKER_MESSAGES } from '@ce/contract';
import { unzipVerified, ZipError, zipDirectory } from '../../core/zip.js';

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
    if (!zipEntries(bytes).entries.some((entry) => entry.name === 'xl/workbook.xml'))
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

const ZIP_LIMITS = { maxEntries: MAX_ZIP_ENTRIES, maxUnzippedBytes: MAX_UNZIPPED_BYTES };

/** The zip rules (core/zip.ts) in the tracker's words. */
function inTrackerWords<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    throw new SheetError(
      error.problem === 'too-large'
        ? 'The file unpacks to far more than an hours sheet holds.'
        : TRACKER_MESSAGES.emptyFile,
    );
  }
}

const zipEntries = (bytes: Buffer) => inTrackerWords(() => zipDirectory(bytes, ZIP_LIMITS));

/** Every entry held to the directory and inflated once (core/zip.ts); each worksheet must be whole. */
const verifyZip = (bytes: Buffer) =>
  inTrackerWords(() => unzipVerified(bytes, ZIP_LIMITS, (entry, content) => verifySheet(entry.name, content)));

/**
 * Each worksheet's XML must be whole: a sheet cut in the middle (its rows end, its closing tag is missing)
 * is refused as damaged, saying which sheet and after which row it breaks, never read as the rows before it.
 */
function verifySheet(name: string, content: Buffer): void {
  const match = /^xl\/worksheets\/(sheet\d+)\.xml$/i.exec(name);
  if (!match) return;
  const tail = content
    .subarray(Math.max(0, content.length - 256))
    .toString('utf8')
    .trimEnd();
  if (/<\/(?:\w+:)?worksheet>$/.test(tail)) return;
  // The last whole row: the start tag of the row that the last closing tag ends.
  const text = content.toString('utf8');
  const closed = Math.max(text.lastIndexOf('</row>'), text.lastIndexOf(':row>'));
  const opened = closed < 0 ? -1 : Math.max(text.lastIndexOf('<row ', closed), text.lastIndexOf(':row ', closed));
  const last = opened < 0 ? undefined : /\br="(\d+)"/.exec(text.slice(opened, opened + 512))?.[1];
  throw new SheetError(
    `The file is damaged: its ${match[1]} breaks off ${last ? `after row ${last}` : 'before its first row'}. ` +
      'Open it in Excel, save it again and upload it once more.',
  );
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
  const { default: ExcelJS } = await import('exceljs');
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
      for await (const row of sheet) {
        const values = (Array.isArray(row.values) ? row.values : []).slice(1).map(cellOf);
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
    if ('result' in value) return cellOf(value.result);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return null;
  }
  return null;
}
