import { expect, test, type Page } from './fixtures.js';
import { dialog, expectNoAxeViolations, sandboxToken, setScenario, signIn } from './helpers';

const switcher = (page: Page) => page.getByTestId('customer-switcher');
const chooser = (page: Page) => page.getByRole('dialog', { name: 'Customer' });

/** Pastes a token into the open switcher and asks for it. */
async function paste(page: Page, token: string) {
  await chooser(page).getByLabel('Org Admin token').fill(token);
  await chooser(page).getByRole('button', { name: 'Use this token' }).click();
}

test('the switcher says what a token may do, which failure it was, and keeps recent customers apart', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxToken(page, 'org-admin');
  const readOnly = await sandboxToken(page, 'read-only');
  const revoked = await sandboxToken(page, 'revoked');
  await switcher(page).click();

  await paste(page, 'hello');
  await expect(chooser(page)).toContainText(
    'Invalid OAuth token. Please check your token and try again. This is not a token of the platform',
  );
  await paste(page, revoked.token);
  await expect(chooser(page)).toContainText(
    'Invalid OAuth token. Please check your token and try again. The platform knows no such token any more: it was revoked or has expired.',
  );
  await expect(switcher(page)).not.toContainText(admin.organizationName);

  // A read-only token is chosen, and the switcher stays open saying what it may do.
  await paste(page, readOnly.token);
  const chosen = chooser(page).getByRole('region', { name: 'Chosen customer' });
  await expect(chosen.getByTestId('customer-ability')).toContainText(
    'read-only: reports work, writing tools will be refused.',
  );
  await expect(chosen).toContainText(
    `Working for ${readOnly.organizationName} · token …${readOnly.token.slice(-8)} · read-only`,
  );
  await expect(switcher(page)).toContainText(readOnly.organizationName);
  await expectNoAxeViolations(page, '[role="dialog"]');

  // An Org Admin token of the same organization: chosen at once; the recent read-only one is told apart in words.
  await paste(page, admin.token);
  await expect(chooser(page)).toBeHidden();
  await switcher(page).click();
  await expect(chooser(page).getByTestId('customer-ability')).toHaveText('Org Admin: reports and writing tools work.');
  const recent = chooser(page).getByRole('region', { name: 'Recent customers' }).getByRole('button');
  await expect(recent).toHaveText([`${readOnly.organizationName} · token …${readOnly.token.slice(-8)} · read-only`]);
});

test('a tool opened for the chosen customer goes on at once, without waiting for its token to be checked again', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxToken(page, 'org-admin');
  await switcher(page).click();
  await paste(page, admin.token);
  await expect(chooser(page)).toBeHidden();

  // The platform now answers in 4 s: the wizard does not wait for it (it still reads, unwaited, as a revocation's guard).
  await setScenario(page, { latencyMs: 4_000 });
  let answered = 0;
  page.on('requestfinished', (request) => {
    if (request.url().endsWith('/api/account-groups')) answered += 1;
  });
  await page.goto('/home/tools/account-health');
  await page.getByRole('button', { name: /AHC v7/ }).click();
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await expect(dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox').first()).toBeVisible();
  await expect(dialog(page).getByText('Checking token…')).toHaveCount(0);
  expect(answered).toBe(0);
  await setScenario(page, null);
});
