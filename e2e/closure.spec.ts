import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { dialog, doneReport, fillReportWizard, sandboxOrgAdmin, signIn } from './helpers';

async function requestDocument(page: Page, button: RegExp, details: Record<string, string>) {
  const admin = await sandboxOrgAdmin(page);
  await page.goto('/home/tools/ps-closure-documents');
  await page.getByRole('button', { name: button }).click();
  await fillReportWizard(page, admin);
  for (const [label, value] of Object.entries(details)) await dialog(page).getByLabel(label).fill(value);
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
}

async function downloads(page: Page, label: string): Promise<Record<string, Buffer>> {
  const row = await doneReport(page, label);
  const files: Record<string, Buffer> = {};
  for (const link of await row.getByRole('link', { name: /^Download / }).all()) {
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const name = download.suggestedFilename();
    files[name.slice(name.lastIndexOf('.'))] = await readFile((await download.path()) ?? '');
  }
  return files;
}

test('AS Built closure document: optional details on the last step, then a Word file and a PDF', async ({ page }) => {
  await signIn(page, 'proserv@demo.local');
  await requestDocument(page, /AS Built Closure Document/, {
    'Engagement name': 'Acme visibility rollout',
    'Customer contact': 'Dana Customer',
    Notes: 'Branch agents pending.',
  });
  await expect(
    page.getByRole('status').filter({ hasText: 'AS Built Closure Document submitted successfully' }),
  ).toBeVisible();
  const files = await downloads(page, 'AS Built Closure Document');
  expect(Object.keys(files).sort()).toEqual(['.docx', '.pdf']);
  expect(files['.docx']?.subarray(0, 2).toString()).toBe('PK');
  expect(files['.pdf']?.subarray(0, 5).toString()).toBe('%PDF-');
});

test('Endpoints closure document: submitted without the optional details, a Word file and a PDF', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  await requestDocument(page, /Endpoints Closure Document/, {});
  await expect(
    page.getByRole('status').filter({ hasText: 'Endpoints Closure Document submitted successfully' }),
  ).toBeVisible();
  const files = await downloads(page, 'Endpoints Closure Document');
  expect(Object.keys(files).sort()).toEqual(['.docx', '.pdf']);
});
