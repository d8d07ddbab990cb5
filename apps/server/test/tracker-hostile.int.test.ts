import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKER_MESSAGES, type ParseResponse } from '@ce/contract';
import { createTestApp, multipartBody, signedInClient, type TestApp, type TestClient } from './build-test-app.js';
import { SheetParser } from '../src/modules/tracker/sheet-parser.js';
import {
  HEADER,
  WEEK,
  day,
  xlsxOf,
  xlsOf,
  zipOf,
  entriesOf,
  smuggled,
  cutSheetWorkbook,
  folderBytes,
} from './support/hours-files.js';

describe('malformed hours files', () => {
  let testApp: TestApp;
  let tam: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers each of 200+ hostile files with a clear 4xx (or reads it safely), never crashing or stalling', async () => {
    const valid = await xlsxOf(Array.from({ length: 40 }, (_, index) => [`ENG-${index}`, 'Call', day(0), '', 'x', 1]));
    const files: { label: string; bytes: Buffer; readable?: boolean }[] = [];
    for (let cut = 1; cut <= 60; cut++)
      files.push({ label: `xlsx cut at ${cut}/61`, bytes: valid.subarray(0, Math.floor((valid.length * cut) / 61)) });
    for (let index = 0; index < 40; index++) {
      const mutated = Buffer.from(valid);
      for (let flip = 0; flip < 8; flip++) {
        const at = (index * 7919 + flip * 104_729) % mutated.length;
        mutated[at] = (mutated[at] ?? 0) ^ 0xff;
      }
      files.push({ label: `xlsx with flipped bytes ${index}`, bytes: mutated, readable: true });
    }
    files.push({
      label: 'zip bomb (honest sizes)',
      bytes: zipOf([{ name: 'xl/workbook.xml', data: Buffer.alloc(130 * 1024 * 1024) }]),
    });
    files.push({
      label: 'zip bomb (lying sizes)',
      bytes: zipOf([{ name: 'xl/workbook.xml', data: Buffer.alloc(60 * 1024 * 1024), declaredSize: 1000 }]),
    });
    files.push({
      label: 'workbook with a smuggled local entry (150 MB of spaces)',
      bytes: smuggled(valid, 'xl/worksheets/sheet9.xml', Buffer.alloc(150 * 1024 * 1024, 0x20)),
    });
    files.push({
      label: 'workbook with a smuggled local entry (a second workbook)',
      bytes: smuggled(valid, 'xl/workbook.xml', Buffer.from('<workbook/>')),
    });
    for (let rows = 1; rows <= 5; rows++)
      files.push({
        label: `workbook with its sheet XML cut (${rows * 20} rows)`,
        bytes: await cutSheetWorkbook(rows * 20),
      });
    files.push({
      label: 'zip without a workbook',
      bytes: zipOf([{ name: 'word/document.xml', data: Buffer.from('<w/>') }]),
    });
    for (let index = 0; index < 30; index++) {
      const noise = Buffer.alloc(64 + index * 97);
      for (let at = 0; at < noise.length; at++) noise[at] = (at * 31 + index * 17) % 256;
      files.push({ label: `binary noise ${index}`, bytes: noise });
    }
    for (const magic of ['%PDF-1.7\n', '\x89PNG\r\n\x1a\n', 'GIF89a', '\x7fELF', 'MZ\x90\x00'])
      files.push({
        label: `wrong magic ${JSON.stringify(magic)}`,
        bytes: Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.alloc(200, 1)]),
      });
    for (const html of ['<!doctype html><p>x', '<html><body>', '<?xml version="1.0"?><a/>', '  <!DOCTYPE HTML>'])
      files.push({ label: `html renamed ${html}`, bytes: Buffer.from(html) });
    files.push({
      label: 'xls header then garbage',
      bytes: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4000, 7)]),
    });
    const xls = xlsOf([['ENG-1', 'Call', day(0), '', 'x', 1]]);
    for (let cut = 1; cut <= 20; cut++)
      files.push({
        label: `xls cut at ${cut}/21`,
        bytes: xls.subarray(0, Math.floor((xls.length * cut) / 21)),
        readable: true,
      });
    files.push({ label: 'empty file', bytes: Buffer.alloc(0) });
    files.push({ label: 'header only', bytes: Buffer.from(`${HEADER.join(',')}\n`) });
    files.push({ label: 'csv without the columns', bytes: Buffer.from('name,hours\nx,1\n') });
    files.push({
      label: 'csv with a 5 MB line',
      bytes: Buffer.from(`${HEADER.join(',')}\nE,General,,,${'w'.repeat(5_000_000)},1\n`),
    });
    files.push({
      label: 'csv with 100,000 rows',
      bytes: Buffer.from(`${HEADER.join(',')}\n${'E,Call,,,x,1\n'.repeat(100_000)}`),
    });
    files.push({ label: 'over 10 MB', bytes: Buffer.alloc(10 * 1024 * 1024 + 10, 0x41) });
    const hostile = `${HEADER.join(',')}\n=cmd|' /C calc'!A0,+1+1,1850-01-01,@SUM(1),"-2+3",1\nE2,Call,9999-12-31,,ok,abc\n`;
    files.push({ label: 'formulas and dates out of range', bytes: Buffer.from(hostile), readable: true });
    // Control characters make a text file binary: refused as not a CSV.
    files.push({
      label: 'control characters in cells',
      bytes: Buffer.from(`${HEADER.join(',')}\nE,Call,,,"a\u0000\u0007b",1\n`),
    });
    const csv = Buffer.from(`${HEADER.join(',')}\n"E,1,Call\n${'E,Call,,,"unclosed,1\n'.repeat(3)}`);
    for (let index = 0; index < 20; index++) {
      const broken = Buffer.from(csv);
      broken[(index * 13) % broken.length] = 0;
      files.push({ label: `csv with a NUL byte at ${(index * 13) % broken.length}`, bytes: broken });
    }
    for (let index = 0; index < 20; index++)
      files.push({
        label: `csv with unbalanced quotes ${index}`,
        bytes: Buffer.from(`${HEADER.join(index % 2 ? ';' : ',')}\n${'"'.repeat(index + 1)}E,Call,,,x,1\n`),
        readable: true,
      });
    expect(files.length).toBeGreaterThanOrEqual(200);

    const startRss = process.memoryUsage().rss;
    for (const file of files) {
      const response = await uploadTo(tam, file.bytes);
      const status = response.statusCode;
      if (file.readable && status === 200) {
        const parsed = response.json<ParseResponse>();
        for (const row of parsed.data)
          for (const value of Object.values(row))
            expect(
              [...String(value)].every((character) => character >= ' ' || '\n\t'.includes(character)),
              file.label,
            ).toBe(true);
        continue;
      }
      expect(status, `${file.label}: ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(status, file.label).toBeLessThan(500);
      const message = response.json<{ error: { message: string } }>().error.message;
      expect(message.length, file.label).toBeGreaterThan(10);
      // The server still answers at once after each file.
      expect((await testApp.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
    expect(process.memoryUsage().rss - startRss).toBeLessThan(400 * 1024 * 1024);

    const hostileRows = (await uploadTo(tam, Buffer.from(hostile))).json<ParseResponse>();
    expect(hostileRows.warnings).toEqual(
      expect.arrayContaining([
        'Row 2: due_date 1850-01-01 is out of range; today is used.',
        'Row 3: due_date 9999-12-31 is out of range; today is used.',
        'Row 3: hours_spent "abc" is not a number; counted as 0.',
      ]),
    );
    // Formula-like text stays text here; every file the product writes neutralises it (results file below).
    const result = await tam.request({
      method: 'POST',
      url: '/api/tracker/tasks',
      payload: { weekStart: WEEK, tasks: hostileRows.data },
    });
    const file = await tam.request({ method: 'GET', url: `/api/tracker/results/${result.json().resultsFileId}` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const cells = workbook.getWorksheet('Results')?.getRow(2).values as unknown[];
    expect(cells).toContain("'=cmd|' /C calc'!A0");
    expect(cells).toContain("'+1+1");
  }, 240_000);
});

async function uploadTo(client: TestClient, bytes: Buffer) {
  return client.request({
    method: 'POST',
    url: '/api/tracker/parse',
    ...(await multipartBody({ selectedDate: WEEK }, { file: { bytes, name: 'hours.xlsx' } })),
  });
}

describe('hostile workbooks and the parser’s temporary files', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let tempRoot: string;
  const parsers: SheetParser[] = [];
  const parserOf = (options: ConstructorParameters<typeof SheetParser>[0] = {}) => {
    const parser = new SheetParser({ tempRoot, ...options });
    parsers.push(parser);
    return parser;
  };

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    tempRoot = mkdtempSync(path.join(os.tmpdir(), 'ce-sheets-test-'));
  });
  afterAll(async () => {
    await Promise.all(parsers.map((parser) => parser.close()));
    await testApp.close();
    rmSync(tempRoot, { recursive: true, force: true });
  });

  it('refuses a workbook with a local entry the central directory does not list, and writes nothing', async () => {
    const valid = await xlsxOf([['ENG-1', 'Call', day(0), '', 'x', 1]]);
    // 150 MB of spaces deflate to about 150 KB: a sheet the streaming reader would spool to disk.
    const bomb = smuggled(valid, 'xl/worksheets/sheet9.xml', Buffer.alloc(150 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const response = await uploadTo(tam, bomb);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toBe(TRACKER_MESSAGES.emptyFile);
    // Through a parser of its own, the temporary folder stays empty, before and after.
    const parser = parserOf();
    await expect(parser.parse(bomb, WEEK, day(0), 'someone')).rejects.toThrow(TRACKER_MESSAGES.emptyFile);
    expect(folderBytes(tempRoot)).toBeLessThan(1024 * 1024);
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  it('refuses a zip whose entries leave a gap, or whose directory and local sizes disagree', async () => {
    const valid = await xlsxOf([['ENG-1', 'Call', day(0), '', 'x', 1]]);
    const entries = entriesOf(valid);
    const sound = zipOf(entries);
    expect((await uploadTo(tam, sound)).statusCode).toBe(200);
    // A gap: bytes between the last entry and the directory, with the directory's offset moved past them.
    const end = sound.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const directory = sound.readUInt32LE(end + 16);
    const gap = Buffer.concat([sound.subarray(0, directory), Buffer.alloc(64), sound.subarray(directory)]);
    gap.writeUInt32LE(directory + 64, gap.length - 22 + 16);
    expect((await uploadTo(tam, gap)).statusCode).toBe(400);
    // A local header saying a different size than the directory.
    const lying = Buffer.from(sound);
    lying.writeUInt32LE(lying.readUInt32LE(22) + 1, 22);
    expect((await uploadTo(tam, lying)).statusCode).toBe(400);
  });

  it('refuses a workbook whose sheet XML is cut in the middle, saying where it breaks', async () => {
    const response = await uploadTo(tam, await cutSheetWorkbook(200));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(
      /^The file is damaged: its sheet1 breaks off after row \d+\. Open it in Excel, save it again and upload it once more\.$/,
    );
    const row = Number(/after row (\d+)/.exec(response.body)?.[1]);
    expect(row).toBeGreaterThan(10);
    expect(row).toBeLessThan(201);
  });

  it('leaves no temporary folder after a read, a refused, a failed and a killed parse, and sweeps stale ones', async () => {
    // A folder left by a process that is gone, and a fresh one of a live process: only the first is swept.
    mkdirSync(path.join(tempRoot, '999999999-left'), { recursive: true });
    mkdirSync(path.join(tempRoot, `${process.pid}-other`), { recursive: true });
    const parser = parserOf();
    expect(readdirSync(tempRoot)).toEqual([`${process.pid}-other`]);
    rmSync(path.join(tempRoot, `${process.pid}-other`), { recursive: true });

    const valid = await xlsxOf(Array.from({ length: 50 }, (_, index) => [`ENG-${index}`, 'Call', day(0), '', 'x', 1]));
    expect((await parser.parse(valid, WEEK, day(0), 'a')).data).toHaveLength(50);
    expect(readdirSync(tempRoot)).toEqual([]);
    await expect(parser.parse(Buffer.from('%PDF-1.7 not a sheet'), WEEK, day(0), 'a')).rejects.toThrow();
    expect(readdirSync(tempRoot)).toEqual([]);
    await expect(parser.parse(await cutSheetWorkbook(50), WEEK, day(0), 'a')).rejects.toThrow(/damaged/);
    expect(readdirSync(tempRoot)).toEqual([]);
    // Killed: a thread out of time is replaced, and its folder goes with it.
    const slow = parserOf({ timeoutMs: 1 });
    const big = await xlsxOf(
      Array.from({ length: 20_000 }, (_, index) => [`ENG-${index}`, 'Call', day(0), '', 'x', 1]),
    );
    await expect(slow.parse(big, WEEK, day(0), 'a')).rejects.toThrow(/too long/);
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  it('reads one file at a time per user, and another user is not kept waiting', async () => {
    const parser = parserOf();
    const file = await xlsxOf(
      Array.from({ length: 2_000 }, (_, index) => [`ENG-${index}`, 'Call', day(0), '', 'x', 1]),
    );
    const first = parser.parse(file, WEEK, day(0), 'alice');
    await expect(parser.parse(file, WEEK, day(0), 'alice')).rejects.toMatchObject({
      statusCode: 429,
      message: 'Your previous file is still being read. Wait for it, then try again.',
    });
    const other = parser.parse(file, WEEK, day(0), 'bob');
    expect((await first).data).toHaveLength(2_000);
    expect((await other).data).toHaveLength(2_000);
    // Once the first is done, the same user may send the next.
    expect((await parser.parse(file, WEEK, day(0), 'alice')).data).toHaveLength(2_000);
  });
});
