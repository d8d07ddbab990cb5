import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test } from './fixtures.js';
import { dialog, doneReport, fillReportWizard, sandboxOrgAdmin, signIn } from './helpers';

test('TAM activity: no account group needed, 7/14/21 days, to My Reports done and its three files', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxOrgAdmin(page);

  await page.goto('/home/tools/tam-weekly-report');
  await page.getByRole('button', { name: 'TAM Activity Report' }).click();
  // No account group: the report covers the whole organization.
  await fillReportWizard(page, admin, 0);
  const days = dialog(page).getByLabel('Days range');
  await expect(days).toHaveValue('7');
  await expect(days.getByRole('option')).toHaveText(['7', '14', '21']);
  await days.selectOption('21');
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'TAMs Activity Report submitted successfully' }),
  ).toBeVisible();

  const row = await doneReport(page, 'TAMs Activity Report');
  await row.getByRole('button', { name: 'View report' }).click();
  const frame = page.frameLocator(`iframe[title="TAMs Activity Report: ${admin.organizationName}"]`);
  await expect(frame.getByRole('heading', { name: 'TAM activity report' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Busiest users' })).toBeVisible();
  await page.keyboard.press('Escape');

  const links = row.getByRole('link', { name: /^Download / });
  await expect(links).toHaveCount(3);
  const kinds: string[] = [];
  for (const link of await links.all()) {
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const name = download.suggestedFilename();
    kinds.push(name.slice(name.lastIndexOf('.')));
    const content = await readFile((await download.path()) ?? '');
    if (name.endsWith('.xlsx')) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(content as unknown as ArrayBuffer);
      expect(workbook.getWorksheet('Events')?.rowCount).toBeGreaterThan(1);
    }
    if (name.endsWith('.pdf')) expect(content.subarray(0, 5).toString()).toBe('%PDF-');
  }
  expect(kinds.sort()).toEqual(['.html', '.pdf', '.xlsx']);
});
