import { expect, test, type Browser, type Page } from './fixtures.js';
import Provider from 'oidc-provider';
import type { Server } from 'node:http';
import { expectNoAxeViolations, signIn, signInAsNewUser } from './helpers';

const APP = `http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`;
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3108);

async function latestCode(page: Page, to: string): Promise<string> {
  const response = await page.request.get(`/sandbox/mail/messages?to=${encodeURIComponent(to)}`);
  const items = (await response.json()).items as { text: string }[];
  return /code is ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(items.at(-1)?.text ?? '')?.[1] ?? '';
}

async function inviteThroughSettings(browser: Browser, email: string, role: string): Promise<string> {
  const admin = await browser.newPage();
  await signIn(admin, 'superuser@demo.local');
  await admin.goto('/home/settings');
  const form = admin.getByRole('form', { name: 'Invite a user' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('Fresh Person');
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Invite' }).click();
  const temporary = (await admin.getByTestId('temporary-password').textContent()) ?? '';
  await expect(admin.getByTestId('audit-row').filter({ hasText: email }).first()).toContainText('user.invited');
  await admin.close();
  return temporary;
}

test('a first sign-in with a temporary password goes through the new-password step', async ({ page, browser }) => {
  const temporary = await inviteThroughSettings(browser, 'fresh.person@example.com', 'ProServ');
  expect(temporary.length).toBeGreaterThan(10);

  await page.goto('/login');
  await page.getByLabel('Username').fill('fresh.person@example.com');
  await page.getByLabel('Password').fill(temporary);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Confirm New Password' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Password rules' })).toContainText('At least 8 characters');

  await page.getByLabel('New password', { exact: true }).fill('Brand-New-Pass-1');
  await page.getByLabel('Confirm new password').fill('Brand-New-Pass-2');
  await page.getByRole('button', { name: 'Confirm New Password' }).click();
  await expect(page.getByTestId('login-status')).toHaveText('Passwords do not match');

  await page.getByLabel('Confirm new password').fill('Brand-New-Pass-1');
  await page.getByRole('button', { name: 'Confirm New Password' }).click();
  await expect(page).toHaveURL(/\/home\/dashboard$/);
  await expect(page.getByTestId('role-badge')).toHaveText('ProServ');
});

test('a password is reset with the code from the mailbox', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByLabel('Username').fill('t3@demo.local');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByTestId('login-status')).toContainText('a confirmation code is on its way');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByTestId('login-status')).toHaveText('Confirmation code cannot be empty');

  // The mail leaves right after the answer.
  await expect.poll(() => latestCode(page, 't3@demo.local')).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const code = await latestCode(page, 't3@demo.local');
  await page.getByLabel('Confirmation code').fill(code);
  await page.getByLabel('New password', { exact: true }).fill('Recovered-Pass-3');
  await page.getByLabel('Confirm new password').fill('Recovered-Pass-3');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByTestId('login-status')).toHaveText(
    'Your password has been reset. Sign in with the new password.',
  );

  await page.getByLabel('Password').fill('Recovered-Pass-3');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/home\/dashboard$/);
});

// A user of its own: it counts sessions.
/** A user of its own signed in on two browsers (a laptop and a phone); `close` ends both. */
async function onTwoBrowsers(browser: Browser) {
  const [first, second] = [await browser.newContext(), await browser.newContext()];
  const [laptop, phone] = [await first.newPage(), await second.newPage()];
  const user = await signInAsNewUser(laptop, 'Support');
  await signIn(phone, user.email, user.password);
  return { laptop, phone, close: () => Promise.all([first.close(), second.close()]) };
}

test('signing out ends the session seen from a second browser too', async ({ browser }) => {
  const { laptop, phone, close } = await onTwoBrowsers(browser);

  await phone.goto('/home/settings');
  await expect(phone.getByTestId('session-row')).toHaveCount(2);

  await laptop.getByRole('button', { name: 'Logout' }).click();
  await expect(laptop).toHaveURL(/\/login$/);

  await phone.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await phone.reload();
  await expect(phone).toHaveURL(/\/login$/);
  await close();
});

test('ending another session asks first, naming the device: Cancel ends nothing, End session signs it out', async ({
  browser,
}) => {
  const { laptop, phone, close } = await onTwoBrowsers(browser);
  await laptop.goto('/home/settings/sessions');
  const rows = laptop.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  const other = rows.filter({ hasNotText: 'This device' });

  await other.getByRole('button', { name: 'End session' }).click();
  const asking = laptop.getByRole('dialog', { name: /^End the session on / });
  await expect(asking).toContainText('is signed out at once');
  await expect(asking.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(laptop, '[role="dialog"]');
  await asking.getByRole('button', { name: 'Cancel' }).click();
  await expect(asking).toBeHidden();
  await phone.reload();
  await expect(phone.getByRole('navigation', { name: 'Main menu' })).toBeVisible();

  await other.getByRole('button', { name: 'End session' }).click();
  await asking.getByRole('button', { name: 'End session' }).click();
  await expect(laptop.getByRole('status').filter({ hasText: 'Session ended' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await phone.reload();
  await expect(phone).toHaveURL(/\/login$/);
  await close();
});

test('repeated failures lock the account with a clear message', async ({ page }) => {
  // An account no other browser test signs in with: it stays locked for the rest of the run.
  await page.goto('/login');
  await page.getByLabel('Username').fill('pmo@demo.local');
  for (let attempt = 0; attempt < 4; attempt++) {
    await page.getByLabel('Password').fill(`not-it-${attempt}`);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByTestId('login-status')).toHaveText('Incorrect username or password.', { timeout: 10_000 });
  }
  await page.getByLabel('Password').fill('not-it-again');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByTestId('login-status')).toHaveText(
    'Too many failed sign-in attempts. Try again in 15 minutes.',
    { timeout: 10_000 },
  );
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByTestId('login-status')).toContainText('Too many failed sign-in attempts');
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('single sign-on', () => {
  let server: Server;

  test.beforeAll(async () => {
    const provider = new Provider(`http://127.0.0.1:${OIDC_PORT}`, {
      clients: [
        {
          client_id: 'ce-toolkit-e2e',
          client_secret: 'e2e-client-secret-not-for-production',
          redirect_uris: [`${APP}/api/sso/callback`],
          post_logout_redirect_uris: [`${APP}/login`],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
      // The account id typed at the provider's login form is the email; its locale carries the role.
      findAccount: async (_context, id) => ({
        accountId: id,
        claims: async () => ({
          sub: id,
          email: id,
          email_verified: true,
          name: 'Sol Sso',
          locale: id.startsWith('tam.') ? 'TAM' : 'Support',
        }),
      }),
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    });
    server = provider.listen(OIDC_PORT);
  });

  test.afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  test('signs in through the provider, with the role taken from locale', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.locator('input[name="login"]').fill('tam.sso@example.com');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/home\/dashboard$/);
    await expect(page.getByTestId('welcome')).toContainText('Sol Sso');
    await expect(page.getByTestId('role-badge')).toHaveText('TAM');

    // Signing out ends the provider's session too: after the toast, the provider asks, then returns to /login.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Logged out from all applications' })).toBeVisible();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click({ timeout: 10_000 });
    await expect(page).toHaveURL(/\/login$/);
    // The provider no longer knows the browser: single sign-on asks for the login again.
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(page.locator('input[name="login"]')).toBeVisible();
  });
});

test('settings: a change of password says what is wrong, one thing at a time; users can be searched', async ({
  page,
}) => {
  await signIn(page, 'superuser@demo.local', undefined, '/home/settings');
  const password = page.getByRole('region', { name: 'Change password' });
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toHaveText('Password cannot be empty');
  await expect(password.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await password.getByLabel('Current password').fill('not-the-password');
  await password.getByLabel('New password', { exact: true }).fill('Another-Pass-1');
  await password.getByLabel('Confirm new password').fill('Another-Pass-2');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toHaveText('Passwords do not match');
  await password.getByLabel('Confirm new password').fill('Another-Pass-1');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toHaveText('The current password is not correct.');

  const users = page.getByRole('region', { name: 'Users' });
  const rows = users.getByTestId('user-row');
  await expect(rows.filter({ hasText: 'tam@demo.local' })).toHaveCount(1);
  await users.getByLabel('Search users').fill('support@');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('support@demo.local');
  await users.getByLabel('Search users').fill('no-such-person');
  await expect(rows).toHaveCount(0);
  await expect(users.getByRole('table', { name: 'Users' })).toContainText('No user matches.');
});

test('settings: disabling an account and changing its role ask first, naming it; Cancel changes nothing', async ({
  page,
}) => {
  const email = `e2e-change-${Date.now()}@example.com`;
  await signIn(page, 'superuser@demo.local', undefined, '/home/settings');
  const form = page.getByRole('form', { name: 'Invite a user' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption('TAM');
  await form.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByTestId('temporary-password')).toBeVisible();
  const row = page.getByTestId('user-row').filter({ hasText: email });

  // Disable: a confirmation naming the account, opened on Cancel; Cancel leaves it active.
  await row.getByRole('button', { name: 'Disable' }).click();
  const disable = page.getByRole('dialog', { name: `Disable ${email}?` });
  await expect(disable.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await disable.getByRole('button', { name: 'Cancel' }).click();
  await expect(disable).toBeHidden();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: 'Disable' }).click();
  await disable.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${email} is disabled` })).toBeVisible();
  await expect(row).toContainText('Disabled');
  // Enabling takes nothing away: no question.
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row).toContainText('Active');

  // A role: the select keeps the old one until the change is confirmed.
  const select = row.getByLabel(`Role of ${email}`);
  await select.selectOption('Support');
  const roleChange = page.getByRole('dialog', { name: `Make ${email} Support?` });
  await expect(roleChange).toContainText('now TAM');
  await roleChange.getByRole('button', { name: 'Cancel' }).click();
  await expect(select).toHaveValue('TAM');
  await select.selectOption('Support');
  await roleChange.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${email} is Support now` })).toBeVisible();
  await expect(select).toHaveValue('Support');
  const audit = page.getByTestId('audit-row').filter({ hasText: email });
  await expect(audit.filter({ hasText: 'user.disabled' })).toHaveCount(1);
  await expect(audit.filter({ hasText: 'user.role_changed' })).toHaveCount(1);
});
