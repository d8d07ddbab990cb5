import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekStarts, type CreateTasksResponse, type ParseResponse, type TrackerRow } from '@ce/contract';
import {
  createTestApp,
  DATABASES,
  multipartBody,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const HEADER = ['Engagement_ID', 'task_type', 'due_date', 'external_reference', 'work_performed', 'hours_spent'];
const WEEK = weekStarts().at(-1) ?? '';
const day = (offset: number) => new Date(Date.parse(WEEK) + offset * 86_400_000).toISOString().slice(0, 10);

async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hours');
  for (const row of [HEADER, ...rows]) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
const xlsOf = (rows: unknown[][]): Buffer => {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([HEADER, ...rows]), 'Hours');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'biff8' }) as Buffer;
};

/** A zip written by hand: each entry's declared size may lie, to build bombs the way attackers do. */
function zipOf(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const compressed = deflateRawSync(entry.data);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(entry.data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe.each(DATABASES)('the time tracker (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;

  const upload = async (client: TestClient, bytes: Buffer, name: string, selectedDate = WEEK) =>
    client.request({
      method: 'POST',
      url: '/api/tracker/parse',
      ...(await multipartBody({ selectedDate }, { file: { bytes, name } })),
    });
  const create = async (client: TestClient, tasks: TrackerRow[]) => {
    const response = await client.request({
      method: 'POST',
      url: '/api/tracker/tasks',
      payload: { weekStart: WEEK, fileName: 'hours.xlsx', tasks },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CreateTasksResponse>();
  };
  const crmTasks = () => testApp.sandbox?.salesforce.tasks ?? [];

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('reads xlsx, csv and xls by content with the spec rules, whatever the file is called', async () => {
    const rows = [
      ['ENG-1002', 'Meeting', new Date(`${day(2)}T00:00:00Z`), 'CASE-7', 'Cadence call', 1],
      ['', 'Call', day(1), '', 'Intro', 'two'],
      ['ENG-1002', '', day(0), '', 'Kick-off prep', 2.5],
    ];
    const fromXlsx = await upload(tam, await xlsxOf(rows), 'hours.csv');
    expect(fromXlsx.statusCode, fromXlsx.body).toBe(200);
    const parsed = fromXlsx.json<ParseResponse>();
    expect(parsed.data.map((row) => [row.Engagement_ID, row.task_type, row.due_date, row.hours_spent])).toEqual([
      ['ENG-1002', 'General', day(0), 2.5],
      ['ENG-1002', 'Meeting', day(2), 1],
      ['Unknown', 'Call', day(1), 0],
    ]);
    expect(parsed.warnings).toEqual(['Row 3: hours_spent "two" is not a number; counted as 0.']);

    const csv = `\uFEFF${HEADER.join(';')}\nENG-1003;Email;${day(3)};;"Reply; with ""quotes""\nand a new line";0,75\n`;
    const fromCsv = (await upload(tam, Buffer.from(csv), 'hours.xlsx')).json<ParseResponse>();
    expect(fromCsv.data).toEqual([
      expect.objectContaining({
        Engagement_ID: 'ENG-1003',
        work_performed: 'Reply; with "quotes"\nand a new line',
        hours_spent: 0.75,
      }),
    ]);

    const fromXls = await upload(tam, xlsOf([['ENG-1004', 'Review', day(4), '', 'Design review', 3]]), 'x.bin');
    expect(fromXls.statusCode, fromXls.body).toBe(200);
    expect(fromXls.json<ParseResponse>().data[0]).toMatchObject({
      Engagement_ID: 'ENG-1004',
      due_date: day(4),
      hours_spent: 3,
    });

    const html = await upload(tam, Buffer.from('<!doctype html><html><body>hours</body></html>'), 'hours.xlsx');
    expect(html.json().error.message).toBe('Please select a valid Excel file (.xlsx, .xls) or CSV file.');
    const noDate = await upload(tam, Buffer.from('x'), 'hours.csv', '');
    expect(noDate.json().error.message).toBe('Please select both a file and a date before uploading.');
  });

  it('creates tasks once: the partial case, then the same file again creates nothing new', async () => {
    const before = crmTasks().length;
    const hoursBefore = (await tam.request({ method: 'GET', url: '/api/dashboard/metrics' })).json().hours.tam;
    const file = await xlsxOf([
      ['ENG-1001', 'Meeting', day(0), '', `Weekly cadence ${kind}`, 1.5],
      ['ENG-1001', 'Configuration', day(1), 'CASE-9', `Alert rules ${kind}`, 2],
      ['ENG-1013', 'Call', day(1), '', `Closed engagement ${kind}`, 1],
      ['ENG-9999', 'Call', day(2), '', `No such engagement ${kind}`, 1],
      ['', 'General', day(2), '', `No engagement ${kind}`, 1],
    ]);
    const rows = (await upload(tam, file, 'hours.xlsx')).json<ParseResponse>().data;
    const first = await create(tam, rows);
    expect(first.counter).toBe(2);
    expect(first.messages).toEqual([
      expect.stringMatching(/^Row 4: FIELD_CUSTOM_VALIDATION_EXCEPTION: ENG-1013 is closed/),
      'Row 5: Engagement ENG-9999 was not found in Salesforce',
      'Row 6: The row has no Engagement_ID',
    ]);
    expect(first.results.map((result) => result.outcome)).toEqual(['created', 'created', 'failed', 'failed', 'failed']);
    const created = crmTasks().slice(before);
    expect(created.map((task) => [task.Subject, task.ActivityDate, task.WhatId])).toEqual([
      [`Meeting: Weekly cadence ${kind}`, day(0), 'a0E000000000001AAA'],
      [`Configuration: Alert rules ${kind}`, day(1), 'a0E000000000001AAA'],
    ]);
    expect(String(created[0]?.Description)).toContain('Submitted by tam (TAM)');
    const hoursAfter = (await tam.request({ method: 'GET', url: '/api/dashboard/metrics' })).json().hours.tam;
    expect(hoursAfter).toBeCloseTo(hoursBefore + 3.5);

    const again = await create(tam, (await upload(tam, file, 'hours.xlsx')).json<ParseResponse>().data);
    expect(again.counter).toBe(0);
    expect(again.results.slice(0, 2).map((result) => [result.outcome, result.id])).toEqual(
      first.results.slice(0, 2).map((result) => ['duplicate', result.id]),
    );
    expect(crmTasks().length).toBe(before + 2);

    const results = await tam.request({ method: 'GET', url: `/api/tracker/results/${first.resultsFileId}` });
    expect(results.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(results.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Results');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Row', ...HEADER, 'Outcome', 'Id', 'Error']);
    expect(sheet?.getRow(2).getCell(8).value).toBe('Created');
    expect(sheet?.getRow(4).getCell(10).value).toMatch(/ENG-1013 is closed/);
    const other = await signedInClient(testApp.app, 'proserv@demo.local');
    expect(
      (await other.request({ method: 'GET', url: `/api/tracker/results/${first.resultsFileId}` })).statusCode,
    ).toBe(404);
  });

  it('downloads a template the parser reads, with the drop-down of task types', async () => {
    const response = await tam.request({ method: 'GET', url: '/api/tracker/template' });
    expect(response.headers['content-disposition']).toBe('attachment; filename="Task_Tracker_Template.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Hours', 'Instructions']);
    const hours = workbook.getWorksheet('Hours');
    expect(hours?.getRow(1).values).toEqual([undefined, ...HEADER]);
    expect(hours?.getCell('B2').dataValidation).toMatchObject({
      type: 'list',
      formulae: [expect.stringContaining('General')],
    });
    expect(hours?.getColumn(3).numFmt).toBe('yyyy-mm-dd');
    // Filled in, it reads back.
    hours?.addRow(['ENG-1005', 'Training', new Date(`${day(0)}T00:00:00Z`), '', 'Training session', 2]);
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    expect((await upload(tam, filled, 'template.xlsx')).json<ParseResponse>().data).toHaveLength(1);
  });
});

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
