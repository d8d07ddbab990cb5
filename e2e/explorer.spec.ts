import { expect, test, type Page } from './fixtures.js';
import { chooseCustomer, expectNoAxeViolations, sandboxOrgAdmin, signIn, signInAsNewUser } from './helpers';

async function choose(page: Page, method: string, path: string) {
  const operations = page.getByRole('navigation', { name: 'Operations' });
  await operations.getByLabel('Search operations').fill(path);
  await operations
    .getByRole('button', { name: new RegExp(`^${method}\\s*${path.replace(/[/{}]/g, '\\$&')}$`) })
    .click();
  return page.getByRole('article', { name: 'Operation' });
}

test('an explorer call to account groups: status, rate-limit headers, time, the body, exports', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/api-tools');
  const admin = await sandboxOrgAdmin(page);
  const operation = await choose(page, 'GET', '/account-groups');
  await operation.getByLabel('OAuth token').fill(admin.token);
  await operation.getByRole('button', { name: 'Send' }).click();
  const answer = operation.getByRole('region', { name: 'Answer' });
  await expect(answer.getByTestId('answer-status')).toHaveText('200');
  await expect(answer.getByTestId('answer-time')).toHaveText(/^\d+ ms$/);
  await expect(answer.getByRole('definition').first()).toBeVisible();
  await expect(answer.getByLabel('Headers')).toContainText('x-organization-rate-limit-limit');
  await expect(answer.getByLabel('Body')).toContainText(admin.organizationName);
  await expectNoAxeViolations(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    answer.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await expect(answer.getByRole('button', { name: 'Follow next page' })).toHaveCount(0);
});

test('a paginated call follows its next page; writes are for Super Users, after a confirmation', async ({ page }) => {
  await signIn(page, 'superuser@demo.local', undefined, '/home/api-tools');
  const admin = await sandboxOrgAdmin(page);
  const alerts = await choose(page, 'GET', '/alerts');
  await alerts.getByLabel('OAuth token').fill(admin.token);
  await alerts.getByLabel('window').fill('90d');
  await alerts.getByLabel('max').fill('3');
  await alerts.getByRole('button', { name: 'Send' }).click();
  const answer = alerts.getByRole('region', { name: 'Answer' });
  await expect(answer.getByTestId('answer-status')).toHaveText('200');
  await expect(answer.getByLabel('Body')).toContainText('alerts: [3]');
  const firstUrl = await answer.getByTestId('answer-url').textContent();
  await answer.getByRole('button', { name: 'Follow next page' }).click();
  await expect(answer.getByTestId('answer-url')).not.toHaveText(firstUrl ?? '');
  await expect(answer.getByTestId('answer-url')).toContainText('cursor=');

  const tags = await choose(page, 'POST', '/tags');
  await tags.getByLabel('OAuth token').fill(admin.token);
  await tags
    .getByLabel('Body (JSON)')
    .fill(JSON.stringify({ key: 'e2e', value: 'explorer', objectType: 'test', color: '#1f77b4' }));
  await tags.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send the write' }).click();
  await expect(tags.getByRole('region', { name: 'Answer' }).getByTestId('answer-status')).toHaveText('201');
});

test('a call the platform answers 401 clears the chosen customer whose token it was, as every tool does', async ({
  page,
}) => {
  await signInAsNewUser(page, 'TAM', '/home/api-tools');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  expect((await page.request.post('/sandbox/te/token-revocations', { data: { token: admin.token } })).status()).toBe(
    200,
  );
  const operation = await choose(page, 'GET', '/account-groups');
  // The token field opens with the chosen customer's token.
  await expect(operation.getByText(`${admin.organizationName} · token …${admin.token.slice(-8)}`)).toBeVisible();
  await operation.getByRole('button', { name: 'Send' }).click();
  await expect(operation.getByRole('region', { name: 'Answer' }).getByTestId('answer-status')).toHaveText('401');
  await expect(
    page.getByRole('alert').filter({ hasText: `The platform refused the token for ${admin.organizationName}` }),
  ).toBeVisible();
  await expect(page.getByTestId('customer-switcher')).not.toContainText(admin.organizationName);
});
