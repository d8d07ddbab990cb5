import { expect, test, type Page } from './fixtures.js';
import { card, escape, fillTemplate, groupsOf, testNamesIn, type Group } from './bulk-helpers';
import {
  chooseCustomer,
  dialog,
  expectNoAxeViolations,
  menu,
  sandboxOrgAdmin,
  sandboxToken,
  signInAsNewUser,
  signInThroughForm,
  type SandboxToken,
} from './helpers';

const switcher = (page: Page) => page.getByTestId('customer-switcher');

/** The bulk tests wizard's first two steps, its token field already holding the customer's token. */
async function nextWithGroups(page: Page, groups: Group[]) {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const list = page.getByRole('list', { name: 'Account groups' });
  for (const group of groups)
    await list.getByRole('checkbox', { name: new RegExp(`^${escape(group.accountGroupName)}\\b`) }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Test Configuration' })).toBeVisible();
}

/** A token field that opens with the chosen customer: named, the token's end shown, the token itself not. */
async function expectCustomerToken(page: Page, admin: SandboxToken, scope = page.locator('body')) {
  const shown = scope.getByTestId('customer-token');
  await expect(shown).toContainText(`${admin.organizationName} · token …${admin.token.slice(-8)}`);
  await expect(shown.getByRole('button', { name: 'Use another token' })).toBeVisible();
}

test('one token pasted once: a health check, a bulk run and a backup for that customer, then its page lists them', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { email } = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  const groups = await groupsOf(page, admin.token);
  const [first, second] = groups;
  if (!first || !second) throw new Error('the demo organization has account groups');
  await chooseCustomer(page, admin);
  await expectNoAxeViolations(page);

  // A health check: the wizard's token step opens with the customer.
  await page.goto('/home/tools/account-health');
  await page.getByRole('button', { name: /AHC v7/ }).click();
  await expectCustomerToken(page, admin, dialog(page));
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox').first().check();
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'AHC v7 report submitted successfully' })).toBeVisible();

  // A bulk run: the same customer, not pasted again.
  await page.goto('/home/tools/bulk-tests');
  await expectCustomerToken(page, admin);
  await nextWithGroups(page, [second]);
  await fillTemplate(page, 0, { name: 'E2E Customer page', url: 'https://customer.example.com', agents: [] });
  await card(page, 0).getByRole('list', { name: 'Agents' }).getByRole('checkbox').first().check();
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All 1 test created successfully!' })).toBeVisible({
    timeout: 20_000,
  });
  expect(await testNamesIn(page, admin.token, second.aid)).toContain('E2E Customer page');

  // A backup: again the customer's token, already there.
  await page.goto('/home/tools/backup-restore');
  await expectCustomerToken(page, admin);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page
    .getByRole('list', { name: 'Account groups' })
    .getByRole('checkbox', { name: first.accountGroupName })
    .check();
  await page.getByRole('button', { name: 'Back Up Selected Groups' }).click();
  await expect(
    page.getByRole('table', { name: 'Backups' }).getByRole('row').filter({ hasText: first.accountGroupName }).first(),
  ).toHaveAttribute('data-status', /queued|running|done/);

  // The customer's page: the three, newest first, each with its target, who and a link to its page.
  await switcher(page).click();
  await page.getByRole('dialog', { name: 'Customer' }).getByRole('link', { name: "Open the customer's page" }).click();
  await expect(page).toHaveURL(new RegExp(`/home/customers/${admin.organizationId}$`));
  await expect(page.getByRole('heading', { level: 1, name: admin.organizationName })).toBeVisible();
  const rows = page.getByTestId('timeline-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-tool', 'backups');
  await expect(rows.nth(0)).toContainText(first.accountGroupName);
  await expect(rows.nth(1)).toHaveAttribute('data-tool', 'bulk');
  await expect(rows.nth(1)).toContainText(second.accountGroupName);
  await expect(rows.nth(2)).toHaveAttribute('data-tool', 'reports');
  await expect(rows.nth(2)).toContainText('AHC v7 report');
  for (const row of await rows.all()) await expect(row.getByTitle(email)).toBeVisible();
  await expectNoAxeViolations(page);
  // The backup's row opens that backup, and says what was done once (not its tool again).
  await expect(rows.nth(0)).not.toContainText('Backups');
  await rows.nth(0).getByRole('link').click();
  await expect(page).toHaveURL(/\/home\/tools\/backup-restore\?backup=/);
  await expect(page.getByRole('region', { name: 'Backup', exact: true })).toContainText(first.accountGroupName);
  await page.goBack();
  await page.getByLabel('Tool').selectOption({ label: 'Bulk runs' });
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/home\/tools\/bulk-tests\?run=/);
});

test('sign-out forgets the customer: the next session pastes again, and the browser keeps no copy', async ({
  page,
}) => {
  const { email, password } = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  const kept = () => page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(await kept()).toContain(admin.token);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await kept()).not.toContain(admin.token);
  await signInThroughForm(page, email, password);
  await expect(switcher(page)).toContainText(/Choose a customer|Customer/);
  await expect(switcher(page)).not.toContainText(admin.organizationName);
  await page.goto('/home/tools/backup-restore');
  await expect(page.getByLabel('OAuth Token', { exact: true })).toHaveValue('');
  await expect(menu(page)).toBeVisible();
});

test('a token the platform stops taking clears the customer and says so, in any tool', async ({ page }) => {
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  // The customer's admin revokes the token on the platform.
  expect((await page.request.post('/sandbox/te/token-revocations', { data: { token: admin.token } })).status()).toBe(
    200,
  );
  await page.goto('/home/tools/backup-restore');
  await expectCustomerToken(page, admin);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: `The platform refused the token for ${admin.organizationName}` }),
  ).toBeVisible();
  await expect(switcher(page)).not.toContainText(admin.organizationName);
  await expect(page.getByTestId('customer-token')).toHaveCount(0);
  await switcher(page).click();
  await expect(page.getByRole('dialog', { name: 'Customer' }).getByRole('button', { name: /token …/ })).toHaveCount(0);
});

test('"Use another token" empties the field for another token; "Forget this customer" forgets it', async ({ page }) => {
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  await page.goto('/home/tools/alerts-migration');
  await expectCustomerToken(page, admin);
  await page.getByTestId('customer-token').getByRole('button', { name: 'Use another token' }).click();
  const field = page.getByLabel('OAuth Token', { exact: true });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');

  await switcher(page).click();
  const chooser = page.getByRole('dialog', { name: 'Customer' });
  await expect(chooser).toContainText(`Working for ${admin.organizationName}`);
  await expectNoAxeViolations(page, '[role="dialog"]');
  await chooser.getByRole('button', { name: 'Forget this customer' }).click();
  await expect(chooser).not.toContainText('Working for');
  await expect(chooser.getByRole('button', { name: /token …/ })).toHaveCount(0);
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(admin.token);
});

test('a bulk run the read-only token cannot write: its panel, its toast and the customer page all say failed', async ({
  page,
}) => {
  await signInAsNewUser(page, 'TAM');
  const readOnly = await sandboxToken(page, 'read-only');
  const [group] = await groupsOf(page, readOnly.token);
  if (!group) throw new Error('the demo organization has account groups');
  await page.goto('/home/tools/bulk-tests');
  await page.getByLabel('OAuth Token').fill(readOnly.token);
  await nextWithGroups(page, [group]);
  await fillTemplate(page, 0, { name: 'E2E Read-only run', url: 'https://read-only.example.com', agents: [] });
  await card(page, 0).getByRole('list', { name: 'Agents' }).getByRole('checkbox').first().check();
  // What the run panel says at the very moment the end toast appears.
  await page.evaluate(() => {
    (window as unknown as { atToast: string | null }).atToast = null;
    new MutationObserver((_, observer) => {
      const toasts = [...document.querySelectorAll('[role="status"], [role="alert"]')];
      if (!toasts.some((node) => node.textContent?.includes('Failed to create any tests'))) return;
      const panel = document.querySelector('section[aria-label="Results"]');
      (window as unknown as { atToast: string }).atToast =
        `${panel?.querySelector('[data-testid="run-outcome"]')?.getAttribute('data-outcome') ?? 'none'}|${panel?.textContent ?? ''}`;
      observer.disconnect();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  const ended = page.getByRole('alert').filter({ hasText: 'Failed to create any tests' });
  await expect(ended).toBeVisible({ timeout: 20_000 });
  const atToast = await page.evaluate(() => (window as unknown as { atToast: string | null }).atToast ?? '');
  expect(atToast.split('|')[0]).toBe('failed');
  expect(atToast).not.toMatch(/Queued|Preparing the run/);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByTestId('run-outcome')).toHaveText('failedIts one item was not done: the reason is below.');
  await expect(results.getByTestId('run-item')).toContainText('The token does not have permission for this operation');

  // The customer's page: the run is failed, in words and in red, not done.
  await page.goto(`/home/customers/${readOnly.organizationId}`);
  const row = page.getByTestId('timeline-row').filter({ hasText: 'Create tests' });
  await expect(row.getByTestId('timeline-outcome')).toHaveText('failed');
  await expect(row.getByTestId('timeline-outcome')).toHaveAttribute('data-outcome', 'failed');
  await expect(row.getByTestId('timeline-outcome').locator('span')).toHaveClass(/\bbg-red-100\b/);
  await expectNoAxeViolations(page);
});
