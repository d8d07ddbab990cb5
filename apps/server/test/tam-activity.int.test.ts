import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_SUITE_DATABASES,
  testClock,
  reportFile,
  requestReport,
  type SandboxCustomer,
  reportSuite,
} from './build-test-app.js';

const DAY = 86_400_000;

describe.each(ANSWER_SUITE_DATABASES)('the TAM activity report (%s)', (database) => {
  // Dates are measured against a fixed clock (TEST_CLOCK): the suite runs this file either side of midnight.
  const clock = testClock();
  const suite = reportSuite(database, 'tam@demo.local', { clock, rateLimitPerMinute: 100_000 });

  const run = (options: Record<string, unknown>, accountGroups: SandboxCustomer['groups'] = []) =>
    requestReport(suite.client, suite.customer, 'tam-activity', { options, accountGroups });

  it('counts every audit event of the window once, across the organization, in its spreadsheet', async () => {
    // No event sits within minutes of the window's start, where the report's moment and this one differ.
    const world = suite.app.sandbox?.platform.world;
    const start = clock().getTime() - 14 * DAY;
    for (const event of world?.auditEvents ?? [])
      if (Math.abs(Date.parse(event.date) - start) < 5 * 60_000)
        event.date = new Date(start + 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const report = await run({ daysRange: 14, planner: [] });
    expect(report.status, report.error ?? '').toBe('done');
    expect(report.options).toEqual({ daysRange: 14, planner: [] });
    const bytes = await reportFile(suite.client, report, '.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'By user',
      'By account group',
      'By event type',
      'By day',
      'Events',
    ]);

    const aids = new Set(suite.customer.groups.map((group) => group.aid));
    const inWindow = (world?.auditEvents ?? []).filter(
      (event) => aids.has(event.aid) && Date.parse(event.date) >= start,
    );
    const events = workbook.getWorksheet('Events');
    expect((events?.rowCount ?? 0) - 1).toBe(inWindow.length);
    const perUser = new Map<string, number>();
    for (const event of inWindow) perUser.set(event.user, (perUser.get(event.user) ?? 0) + 1);
    const byUser = workbook.getWorksheet('By user');
    const listed = new Map<string, number>();
    byUser?.eachRow((row, number) => {
      if (number > 1) listed.set(String(row.getCell(1).value), Number(row.getCell(2).value));
    });
    expect(listed).toEqual(perUser);
    const pdfBytes = await reportFile(suite.client, report, '.pdf');
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('keeps to the chosen account groups, and refuses a days range the spec does not offer', async () => {
    const [first] = suite.customer.groups;
    const report = await run({ daysRange: 7 }, first ? [first] : []);
    const page = (await reportFile(suite.client, report, '.html', true)).toString('utf8');
    expect(page).toContain('TAM activity report');
    expect(page).toContain(first?.accountGroupName ?? 'no group');
    expect(page).not.toContain(suite.customer.groups[1]?.accountGroupName);
    const refused = await suite.client.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'tam-activity',
        token: suite.customer.token,
        organization: suite.customer.organization,
        accountGroups: [],
        options: { daysRange: 30 },
      },
    });
    expect(refused.statusCode).toBe(400);
  });
});
