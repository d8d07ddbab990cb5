import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from './fixtures.js';
import { dialog, doneReport, fillReportWizard, sandboxOrgAdmin, signIn } from './helpers';

async function requestReport(page: Page, button: RegExp, toastText: string) {
  const admin = await sandboxOrgAdmin(page);
  await page.goto('/home/tools/config-report');
  await page.getByRole('button', { name: button }).click();
  await fillReportWizard(page, admin);
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: toastText })).toBeVisible();
}

async function downloadWorkbook(page: Page, label: string): Promise<ExcelJS.Workbook> {
  const row = await doneReport(page, label);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /^Download .*\.xlsx$/ }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await download.path()) ?? '')) as unknown as ArrayBuffer);
  return workbook;
}

test('CA & EA Tests Config v7: through the wizard to My Reports, its HTML shown and its workbook by test type', async ({
  page,
}) => {
  await signIn(page, 'proserv@demo.local');
  await requestReport(page, /CA & EA Tests Config v7/, 'CA & EA Tests Config Report v7 submitted successfully');
  const workbook = await downloadWorkbook(page, 'CA & EA Tests Config Report v7');
  expect(workbook.worksheets[0]?.name).toBe('Summary');
  expect(workbook.worksheets.map((sheet) => sheet.name)).toContain('http-server');
  const row = page.getByTestId('report-row').filter({ hasText: 'CA & EA Tests Config Report v7' }).first();
  await row.getByRole('button', { name: 'View report' }).click();
  await expect(
    page
      .frameLocator('iframe[title^="CA & EA Tests Config Report v7"]')
      .getByRole('heading', { name: /^http-server \(\d+\)$/ }),
  ).toBeVisible();
});

test('the 12-tab configuration spreadsheet: through the wizard to My Reports and downloaded', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  await requestReport(page, /Configuration Spreadsheet/, 'Configuration Spreadsheet submitted successfully');
  const workbook = await downloadWorkbook(page, 'Configuration Spreadsheet');
  expect(workbook.worksheets).toHaveLength(12);
  expect(workbook.getWorksheet('Tests')?.rowCount).toBeGreaterThan(1);
});

test('EPA Config: through the wizard to My Reports, its workbook of endpoint agents, labels and tests', async ({
  page,
}) => {
  await signIn(page, 'adoption@demo.local');
  await requestReport(page, /EPA Config/, 'EPA Config Report submitted successfully');
  const workbook = await downloadWorkbook(page, 'EPA Config Report');
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
    'Summary',
    'Endpoint Agents',
    'Labels',
    'Scheduled Tests',
    'Dynamic Tests',
  ]);
  expect(workbook.getWorksheet('Endpoint Agents')?.rowCount).toBeGreaterThan(1);
});
