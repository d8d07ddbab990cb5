import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreateTasksResponse, type ParseResponse, type TrackerRow } from '@ce/contract';
import {
  createTestApp,
  ANSWER_SUITE_DATABASES,
  multipartBody,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { HEADER, WEEK, day, xlsxOf, xlsOf } from './support/hours-files.js';

describe.each(ANSWER_SUITE_DATABASES)('the time tracker (%s)', (kind) => {
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

  it("says the CRM's refusal of a task in its words, not its error code", async () => {
    // A caller of the API may send a row with no task type and no work: the CRM refuses a task without a subject.
    const refused = await create(tam, [
      {
        row: 2,
        Engagement_ID: 'ENG-1002',
        task_type: '',
        due_date: day(0),
        external_reference: '',
        work_performed: '',
        hours_spent: 1,
      },
    ]);
    expect(refused.counter).toBe(0);
    expect(refused.messages).toEqual(['Row 2: Salesforce refused the task: Required fields are missing: [Subject]']);
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
    const parsed = (await upload(tam, file, 'hours.xlsx')).json<ParseResponse>();
    // Flagged before any task is asked for: the CRM answered its status by SOQL.
    expect(parsed.closedEngagements).toEqual(['ENG-1013']);
    expect(parsed.warnings).toContain(
      'Engagement ENG-1013 is closed in Salesforce: its rows will not become tasks. Log them against an open engagement.',
    );
    const rows = parsed.data;
    const first = await create(tam, rows);
    expect(first.counter).toBe(2);
    expect(first.messages).toEqual([
      'Row 4: Engagement ENG-1013 is closed in Salesforce: no task was created',
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
