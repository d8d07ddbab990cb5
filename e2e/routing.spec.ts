import { expect, test } from './fixtures.js';
import { signIn } from './helpers';

test.describe('routes without a session', () => {
  for (const path of ['/', '/no/such/page', '/home', '/home/dashboard', '/home/tools/bulk-tests']) {
    test(`${path} leads to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    });
  }
});

test('the login page has the support link, and validates empty fields', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Need Support?' })).toHaveAttribute('href', /^mailto:.+@.+/);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByTestId('login-status')).toHaveText('Username cannot be empty');
  await page.getByLabel('Username').fill('tam@demo.local');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByTestId('login-status')).toHaveText('Password cannot be empty');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByTestId('login-status')).toHaveText('Incorrect username or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('signing in as a TAM lands on the dashboard with the TAM badge; /home and /login then lead there', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  await expect(page.getByTestId('welcome')).toContainText('Taylor TAM');
  await expect(page.getByTestId('role-badge')).toHaveText('TAM');
  await page.goto('/home');
  await expect(page).toHaveURL(/\/home\/dashboard$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/home\/dashboard$/);
});

test('after sign-in the user returns to the page they asked for', async ({ page }) => {
  await page.goto('/home/settings');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill('superuser@demo.local');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/home\/settings$/);
  await expect(page.getByTestId('profile-role')).toHaveText('Super User');
});

test('every /home route of the route table exists for a Super User, under a CSP without inline styles', async ({
  page,
}) => {
  // The policy forbids inline <style> and style="" markup: any page needing them would be reported here.
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await signIn(page, 'superuser@demo.local');
  const policy = (await page.request.get('/login')).headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/style-src 'self'(;|$)/);
  const pages: [string, string][] = [
    ['/home/tools/account-health', 'Account Health Check'],
    ['/home/tools/config-report', 'Configuration Reports'],
    ['/home/tools/alerts-report', 'Alerts Configuration Report'],
    ['/home/tools/ps-closure-documents', 'PS Closure Documents'],
    ['/home/tools/tam-weekly-report', 'TAM Activity Report'],
    ['/home/tools/tam-maintenance-window', 'Maintenance Window Report'],
    ['/home/tools/bulk-tests', 'Bulk Test Creator'],
    ['/home/tools/bulk-operations', 'Bulk Operations'],
    ['/home/tools/alerts-migration', 'Alerts Migration'],
    ['/home/tools/backup-restore', 'Backup & Restore'],
    ['/home/tools/dashboards', 'Dashboards'],
    ['/home/tools/time-tracking', 'Time Tracking'],
    ['/home/api-tools', 'API Tools'],
    ['/home/support', 'PCAP Support'],
    ['/home/diagnostic-tool', 'Diagnostic Tool'],
    ['/home/settings', 'Settings'],
    ['/home/reports', 'My Reports'],
  ];
  // Inside the app, as its links go (every route is also opened by direct link, one page load each, in the
  // accessibility spec): one load of the app serves them all.
  for (const [path, title] of pages) {
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect(page, path).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
  }
  await page.goto('/home/unknown-page');
  await expect(page).toHaveURL(/\/login$|\/home\/dashboard$/);
  expect(violations).toEqual([]);
});

test('a role without access to a page is told so, even by direct link', async ({ page }) => {
  await signIn(page, 'user@demo.local', undefined, '/home/tools/bulk-tests');
  await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Bulk Test Creator' })).toHaveCount(0);
});
