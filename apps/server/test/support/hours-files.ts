import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { weekStarts } from '@ce/contract';
import { rawZip } from './raw-zip.js';

/** Hours files for the time tracker's tests: workbooks, CSV, legacy XLS, and hand-made zips to damage. */
export const HEADER = ['Engagement_ID', 'task_type', 'due_date', 'external_reference', 'work_performed', 'hours_spent'];
export const WEEK = weekStarts().at(-1) ?? '';
export const day = (offset: number) => new Date(Date.parse(WEEK) + offset * 86_400_000).toISOString().slice(0, 10);

export async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hours');
  for (const row of [HEADER, ...rows]) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
export const xlsOf = (rows: unknown[][]): Buffer => {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([HEADER, ...rows]), 'Hours');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'biff8' }) as Buffer;
};

/** A zip written by hand: each entry's declared size may lie, to build bombs the way attackers do. */
export const zipOf = (entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer =>
  rawZip(
    entries.map(({ name, data }) => ({ name, compressed: deflateRawSync(data), size: data.length, crc: crc32(data) })),
    Object.fromEntries(
      entries.flatMap(({ name, declaredSize }) => (declaredSize === undefined ? [] : [[name, declaredSize]])),
    ),
  );

/** The entries of a zip, read through its central directory. */
export function entriesOf(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = zip.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let index = 0; index < zip.readUInt16LE(end + 10); index++) {
    const nameLength = zip.readUInt16LE(offset + 28);
    const local = zip.readUInt32LE(offset + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + zip.readUInt32LE(offset + 20));
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      data: zip.readUInt16LE(offset + 10) === 8 ? inflateRawSync(data) : Buffer.from(data),
    });
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

/**
 * A zip with one more local entry at its start that the central directory does not list (the directory's
 * offsets are moved past it), as an attacker smuggles a bomb past a check that reads only the directory.
 */
export function smuggled(zip: Buffer, name: string, data: Buffer): Buffer {
  const compressed = deflateRawSync(data, { level: 9 });
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(Buffer.byteLength(name), 26);
  const extra = Buffer.concat([local, Buffer.from(name), compressed]);
  const moved = Buffer.from(zip);
  const end = moved.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = moved.readUInt32LE(end + 16);
  for (let index = 0; index < moved.readUInt16LE(end + 10); index++) {
    moved.writeUInt32LE(moved.readUInt32LE(offset + 42) + extra.length, offset + 42);
    offset += 46 + moved.readUInt16LE(offset + 28) + moved.readUInt16LE(offset + 30) + moved.readUInt16LE(offset + 32);
  }
  moved.writeUInt32LE(moved.readUInt32LE(end + 16) + extra.length, end + 16);
  return Buffer.concat([extra, moved]);
}

/** A workbook whose first sheet's XML is cut in the middle of its rows, in an otherwise sound zip. */
export async function cutSheetWorkbook(rows: number): Promise<Buffer> {
  const whole = await xlsxOf(Array.from({ length: rows }, (_, index) => [`ENG-${index}`, 'Call', day(0), '', 'x', 1]));
  return zipOf(
    entriesOf(whole).map((entry) =>
      entry.name === 'xl/worksheets/sheet1.xml'
        ? { name: entry.name, data: entry.data.subarray(0, Math.floor(entry.data.length / 2)) }
        : entry,
    ),
  );
}

/** Bytes under a folder, counting every file in it. */
export function folderBytes(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const stats = statSync(path.join(folder, name));
    if (stats.isFile()) total += stats.size;
  }
  return total;
}
