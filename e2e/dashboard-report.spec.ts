import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { menu, signIn } from './helpers';

const dialog = (page: Page) => page.getByRole('dialog');

async function throughWizard(page: Page) {
  const tokens = (await (await page.request.get('/sandbox/te/tokens')).json()).tokens as {
    token: string;
    kind: string;
    organizationName: string;
  }[];
  const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
  if (!admin) throw new Error('no org-admin token');
  await page.goto('/home/tools/dashboards');
  await page.getByRole('button', { name: 'Dashboard Report' }).click();
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox').first().check();
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
}

test('Dashboard Report: from the Dashboards page through the wizard to My Reports, its inventory downloaded', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  await throughWizard(page);
  await expect(page.getByRole('status').filter({ hasText: 'Dashboard Report submitted successfully' })).toBeVisible();
  await menu(page).getByRole('link', { name: 'My Reports' }).click();
  const row = page.getByTestId('report-row').filter({ hasText: 'Dashboard Report' }).first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
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
