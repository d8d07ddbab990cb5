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
