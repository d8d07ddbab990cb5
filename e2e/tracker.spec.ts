import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from './fixtures.js';
import { dialog, expectNoAxeViolations, signIn, signInAsNewUser } from './helpers';

const HEADER = ['Engagement_ID', 'task_type', 'due_date', 'external_reference', 'work_performed', 'hours_spent'];

/**
 * This week's Monday, as the week select offers it by default (counted where the browser is, which is where
 * this process is: Playwright's default time zone), and the days after it.
 */
function day(offset: number): string {
  const now = new Date();
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * 86_400_000;
  return new Date(monday + offset * 86_400_000).toISOString().slice(0, 10);
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hours');
  for (const row of [HEADER, ...rows]) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const crmTasks = async (page: Page) =>
  ((await (await page.request.get('/sandbox/salesforce/tasks')).json()) as { records: { Subject: string }[] }).records;
const toast = (page: Page, text: string | RegExp) => page.getByText(text).first();

async function openTracker(page: Page) {
  await page.goto('/home/tools/time-tracking');
  await page.getByRole('button', { name: 'Open Time Tracker' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'TAM Time Tracker' })).toBeVisible();
}

async function uploadFile(page: Page, name: string, buffer: Buffer, mimeType = 'application/octet-stream') {
  await dialog(page).getByLabel('Hours file').setInputFiles({ name, mimeType, buffer });
  await dialog(page).getByRole('button', { name: 'Upload & Process File' }).click();
  // The server reads one file at a time for everyone: with other tests uploading, this one may wait its turn.
  await expect(dialog(page).getByRole('status', { name: 'Uploading' })).toHaveCount(0, { timeout: 30_000 });
}

test('the template downloads as Task_Tracker_Template.xlsx with its columns and task types', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/time-tracking');
  await expect(page.getByText('Latest Version 2025/MAR/26')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Excel Template' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Task_Tracker_Template.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await download.path()) ?? '')) as unknown as ArrayBuffer);
  const hours = workbook.getWorksheet('Hours');
  expect(hours?.getRow(1).values).toEqual([undefined, ...HEADER]);
  expect(hours?.getCell('B2').dataValidation.formulae?.[0]).toContain('General,Meeting');
  expect(workbook.getWorksheet('Instructions')?.getCell('B1').value).toBe('Latest Version 2025/MAR/26');
});

// The product reads one file at a time per user: the tests that upload have users of their own.
test('an xlsx becomes grouped rows; some tasks fail; the same file again creates nothing new', async ({ page }) => {
  await signInAsNewUser(page, 'TAM');
  const stamp = Date.now();
  const file = await xlsx([
    ['ENG-1001', 'Meeting', day(1), 'CASE-1', `Cadence ${stamp}`, 1.5],
    ['', 'Call', day(0), '', `Intro ${stamp}`, 'n/a'],
    ['ENG-1001', 'Review', day(0), '', `Design review ${stamp}`, 2],
    ['ENG-1013', 'Call', day(2), '', `Closed engagement ${stamp}`, 1],
  ]);
  // The CRM is everyone's: this test's tasks are those carrying its stamp.
  const mine = async () => (await crmTasks(page)).filter((task) => task.Subject.includes(String(stamp)));
  await openTracker(page);
  await expect(dialog(page).getByLabel('Week starting')).toHaveValue(day(0));
  await expect(dialog(page).getByLabel('Week starting').locator('option')).toHaveCount(9);
  await uploadFile(page, 'week.xlsx', file);

  const eng = dialog(page).getByRole('region', { name: 'Engagement ENG-1001' });
  await expect(eng.getByTestId('engagement-total')).toHaveText('2 rows · 3.5 hours');
  // Within an engagement, by due date.
  await expect(eng.getByTestId('task-row').first()).toContainText(`Design review ${stamp}`);
  await expect(dialog(page).getByRole('region', { name: 'Engagement Unknown' })).toContainText(`Intro ${stamp}`);
  // The CRM says ENG-1013 is closed before any task is asked for: flagged, its row left out.
  const closed = dialog(page).getByRole('region', { name: 'Engagement ENG-1013' });
  await expect(closed).toContainText('Closed in Salesforce');
  await expect(closed.getByRole('checkbox', { name: 'Select row 5' })).not.toBeChecked();
  await expect(dialog(page).getByTestId('overall-total')).toHaveText('3 of 4 rows selected · Total: 3.5 hours');
  const warnings = dialog(page).getByRole('list', { name: 'Warnings' });
  await expect(warnings).toContainText(
    'Engagement ENG-1013 is closed in Salesforce: its rows will not become tasks. Log them against an open engagement.',
  );
  await expect(warnings).toContainText('Row 3: hours_spent "n/a" is not a number; counted as 0.');
  await expect(toast(page, '2 warnings')).toBeVisible();

  // Ticked again anyway: no task is sent for it, and the row says why in words.
  await closed.getByRole('checkbox', { name: 'Select row 5' }).check();
  await dialog(page).getByRole('checkbox', { name: 'Select row 3' }).uncheck();
  await expect(dialog(page).getByTestId('overall-total')).toHaveText('3 of 4 rows selected · Total: 4.5 hours');
  await dialog(page).getByRole('button', { name: 'Create Selected Tasks' }).click();
  await expect(
    toast(
      page,
      'Some tasks created (2), but failed to create others: Row 5: Engagement ENG-1013 is closed in Salesforce: no task was created',
    ),
  ).toBeVisible();
  await expect(dialog(page).locator('[data-outcome="created"]')).toHaveCount(2);
  await expect(dialog(page).locator('[data-outcome="failed"]')).toHaveText(
    /Engagement ENG-1013 is closed in Salesforce: no task was created/,
  );
  await expect(dialog(page).locator('[data-outcome="failed"]')).not.toContainText('EXCEPTION');
  expect(await mine()).toHaveLength(2);
  await expect(dialog(page).getByRole('link', { name: 'Download results' })).toBeVisible();
  await expectNoAxeViolations(page, '[role="dialog"]');

  await dialog(page).getByRole('button', { name: 'Upload Different File' }).click();
  await uploadFile(page, 'week-again.xlsx', file);
  await dialog(page).getByRole('checkbox', { name: 'Select row 3' }).uncheck();
  await dialog(page).getByRole('checkbox', { name: 'Select row 5' }).uncheck();
  await dialog(page).getByRole('button', { name: 'Create Selected Tasks' }).click();
  await expect(toast(page, 'Tasks processed successfully!')).toBeVisible();
  await expect(dialog(page).locator('[data-outcome="duplicate"]')).toHaveCount(2);
  expect(await mine()).toHaveLength(2);
});

test('a csv creates every task, says so naming Salesforce, and the modal closes', async ({ page }) => {
  await signIn(page, 'proserv@demo.local');
  const stamp = Date.now();
  const csv = `${HEADER.join(';')}\nENG-1002;Email;${day(1)};;"Follow-up; ${stamp}";0,5\nENG-1003;;${day(2)};;"Workshop ${stamp}";3\n`;
  await openTracker(page);
  await uploadFile(page, 'hours.csv', Buffer.from(csv), 'text/csv');
  await expect(dialog(page).getByTestId('overall-total')).toHaveText('2 of 2 rows selected · Total: 3.5 hours');
  await expect(dialog(page).getByRole('region', { name: 'Engagement ENG-1003' })).toContainText('General');
  await dialog(page).getByRole('button', { name: 'Create Selected Tasks' }).click();
  await expect(toast(page, '2 Tasks created successfully in Salesforce')).toBeVisible();
  await expect(dialog(page)).toBeHidden();
  expect((await crmTasks(page)).some((task) => task.Subject === `Email: Follow-up; ${stamp}`)).toBe(true);
});

test('an xls is read too; files and selections are checked with the spec messages', async ({ page }) => {
  await signInAsNewUser(page, 'TAM');
  await openTracker(page);
  await dialog(page).getByRole('button', { name: 'Upload & Process File' }).click();
  await expect(toast(page, 'Please select both a file and a date before uploading.')).toBeVisible();
  await uploadFile(page, 'hours.pdf', Buffer.from('%PDF-1.7'));
  await expect(toast(page, 'Please select a valid Excel file (.xlsx, .xls) or CSV file.')).toBeVisible();
  await uploadFile(page, 'renamed.xlsx', Buffer.from('<!doctype html><p>not a spreadsheet</p>'));
  await expect(
    dialog(page).getByText('Upload failed: Please select a valid Excel file (.xlsx, .xls) or CSV file.'),
  ).toBeVisible();
  await expect(toast(page, 'File upload failed')).toBeVisible();

  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    workbook,
    XLSX.utils.aoa_to_sheet([HEADER, ['ENG-1004', 'Training', day(3), '', 'Admin training', 2]]),
    'Hours',
  );
  await uploadFile(page, 'old.xls', XLSX.write(workbook, { type: 'buffer', bookType: 'biff8' }) as Buffer);
  await expect(dialog(page).getByRole('region', { name: 'Engagement ENG-1004' })).toContainText('Admin training');
  await dialog(page).getByRole('checkbox', { name: 'Select row 2' }).uncheck();
  await dialog(page).getByRole('button', { name: 'Create Selected Tasks' }).click();
  await expect(toast(page, 'Please select at least one row')).toBeVisible();
});

test.describe('east of UTC, early on a Monday', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  test("the week select's default is the user's new week, not UTC's last one", async ({ page }) => {
    // Monday 08:30 in Tokyo is still Sunday 23:30 in UTC.
    await page.clock.setFixedTime(new Date('2026-11-22T23:30:00Z'));
    await signIn(page, 'tam@demo.local');
    await openTracker(page);
    const week = dialog(page).getByLabel('Week starting');
    await expect(week).toHaveValue('2026-11-23');
    await expect(week.locator('option')).toHaveCount(9);
    await expect(week.locator('option').first()).toHaveText('2026-09-28');
  });
});
