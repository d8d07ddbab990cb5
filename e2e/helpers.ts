import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';

/** Signs in through the login form, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/home\/dashboard$/);
}

export const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
export const groupButton = (page: Page, name: 'Reporting' | 'Tools' | 'Support') =>
  menu(page).getByRole('button', { name, exact: true });

export const dialog = (page: Page) => page.getByRole('dialog');

/** The sandbox's Org Admin token and its organization (the default seed's first organization). */
export async function sandboxOrgAdmin(page: Page): Promise<{ token: string; organizationName: string }> {
  const tokens = (await (await page.request.get('/sandbox/te/tokens')).json()).tokens as {
    token: string;
    kind: string;
    organizationName: string;
  }[];
  const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
  if (!admin) throw new Error('no org-admin token');
  return admin;
}

/** In the open report wizard: the token, Next, the organization, then the first `groups` account groups. */
export async function fillReportWizard(
  page: Page,
  admin: { token: string; organizationName: string },
  groups = 1,
): Promise<void> {
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  const boxes = dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox');
  for (let index = 0; index < groups; index++) await boxes.nth(index).check();
}

/** Opens My Reports and waits until the newest report named `label` is done; returns its row. */
export async function doneReport(page: Page, label: string) {
  await menu(page).getByRole('link', { name: 'My Reports' }).click();
  const row = page.getByTestId('report-row').filter({ hasText: label }).first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  return row;
}
