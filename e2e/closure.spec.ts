import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { menu, signIn } from './helpers';

const dialog = (page: Page) => page.getByRole('dialog');

async function requestDocument(page: Page, button: RegExp, details: Record<string, string>) {
  const tokens = (await (await page.request.get('/sandbox/te/tokens')).json()).tokens as {
    token: string;
    kind: string;
    organizationName: string;
  }[];
  const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
  if (!admin) throw new Error('no org-admin token');
  await page.goto('/home/tools/ps-closure-documents');
  await page.getByRole('button', { name: button }).click();
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox').first().check();
  for (const [label, value] of Object.entries(details)) await dialog(page).getByLabel(label).fill(value);
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
}

async function downloads(page: Page, label: string): Promise<Record<string, Buffer>> {
  await menu(page).getByRole('link', { name: 'My Reports' }).click();
  const row = page.getByTestId('report-row').filter({ hasText: label }).first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
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
