import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.js';
import { dialog, doneReport, expectNoAxeViolations, fillReportWizard, sandboxOrgAdmin, signIn } from './helpers';

test('AHC v7: the wizard, My Reports done, the report shown in the app and its four files downloadable', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/account-health');
  const admin = await sandboxOrgAdmin(page);
  await expect(page.getByRole('button', { name: /AHC-IE/ })).toHaveCount(0);
  await page.getByRole('button', { name: /AHC v7/ }).click();
  await fillReportWizard(page, admin, 2);
  // Two steps only: Submit on the selection step.
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'AHC v7 report submitted successfully' })).toBeVisible();

  const row = await doneReport(page, 'AHC v7');

  await row.getByRole('button', { name: 'View report' }).click();
  const frame = page.frameLocator(`iframe[title="AHC v7: ${admin.organizationName}"]`);
  await expect(frame.getByRole('heading', { name: 'AHC v7 account health check' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: /^Score: \d+\/100, grade [A-F]$/ })).toBeVisible();
  await expect(frame.getByText('Dashboards with fewer than two widgets').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);

  const links = row.getByRole('link', { name: /^Download / });
  await expect(links).toHaveCount(4);
  const names: string[] = [];
  for (const link of await links.all()) {
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    names.push(download.suggestedFilename());
    const content = await readFile((await download.path()) ?? '');
    if (download.suggestedFilename() === 'findings.json') {
      const findings = JSON.parse(content.toString('utf8')) as { kind: string; checks: { id: string }[] };
      expect(findings.kind).toBe('ahc-v7');
      expect(findings.checks.map((check) => check.id)).toContain('sparse-dashboards');
    } else if (download.suggestedFilename().endsWith('.pdf')) {
      expect(content.subarray(0, 5).toString()).toBe('%PDF-');
    } else if (download.suggestedFilename().endsWith('.xlsx')) {
      expect(content.subarray(0, 2).toString()).toBe('PK');
    }
  }
  expect(names.map((name) => name.replace(/^ahc-v7-.*(\.\w+)$/, 'ahc-v7$1')).sort()).toEqual([
    'ahc-v7.html',
    'ahc-v7.pdf',
    'ahc-v7.xlsx',
    'findings.json',
  ]);
});

test('AHC-IE as Super User: a third step chooses the tables and the days range', async ({ page }) => {
  await signIn(page, 'superuser@demo.local', undefined, '/home/tools/account-health');
  const admin = await sandboxOrgAdmin(page);
  await page.getByRole('button', { name: /AHC-IE/ }).click();
  await fillReportWizard(page, admin, 2);
  await expect(dialog(page).getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await dialog(page).getByRole('button', { name: 'Next' }).click();

  const days = dialog(page).getByLabel('Days range');
  await expect(days).toHaveValue('31');
  await expect(days.getByRole('option')).toHaveText(['7', '14', '20', '31']);
  const tables = dialog(page).getByRole('group', { name: 'Tables' }).getByRole('checkbox');
  await expect(tables).toHaveCount(5);
  await expectNoAxeViolations(page, '[role="dialog"]');
  for (const table of await tables.all()) await expect(table).toBeChecked();
  await days.selectOption('14');
  await dialog(page).getByLabel('users_roles').uncheck();
  await dialog(page).getByLabel('quotas').uncheck();
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'AHC-IE v7 report submitted successfully' })).toBeVisible();

  const row = await doneReport(page, 'AHC-IE v7');
  await row.getByRole('button', { name: 'View report' }).click();
  const frame = page.frameLocator(`iframe[title="AHC-IE v7: ${admin.organizationName}"]`);
  await expect(frame.getByRole('heading', { name: 'Alert activity summary (last 14 days)' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Deployment summary' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Users and roles' })).toHaveCount(0);
  await expect(frame.getByRole('heading', { name: 'Quotas' })).toHaveCount(0);
});
