import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from './fixtures.js';
import { dialog, doneReport, fillReportWizard, sandboxOrgAdmin, signIn } from './helpers';

async function throughWizard(page: Page) {
  const admin = await sandboxOrgAdmin(page);
  await page.goto('/home/tools/dashboards');
  await page.getByRole('button', { name: 'Dashboard Report' }).click();
  await fillReportWizard(page, admin);
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
}

test('Dashboard Report: from the Dashboards page through the wizard to My Reports, its inventory downloaded', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  await throughWizard(page);
  await expect(page.getByRole('status').filter({ hasText: 'Dashboard Report submitted successfully' })).toBeVisible();
  const row = await doneReport(page, 'Dashboard Report');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /^Download .*\.xlsx$/ }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await download.path()) ?? '')) as unknown as ArrayBuffer);
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Dashboards', 'Widgets', 'Widget Types']);
  expect(workbook.getWorksheet('Dashboards')?.rowCount).toBeGreaterThan(1);
});

test('an incomplete request says data is missing for the dashboard report', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  await page.route('**/api/reports', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'validation', message: 'Please select at least one account group' } }),
        })
      : route.continue(),
  );
  await throughWizard(page);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Missing data to generate the dashboard report' }),
  ).toBeVisible();
});
