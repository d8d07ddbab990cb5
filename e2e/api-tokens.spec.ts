import { expect, test, type Page } from './fixtures.js';
import { expectNoAxeViolations, sandboxOrgAdmin, signIn } from './helpers';

/** A script's call from the page: the token in the header and no cookie at all. */
async function scriptCall(page: Page, secret: string, path: string, body: unknown) {
  return page.evaluate(
    async ([token, url, json]) => {
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'omit',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: json,
      });
      return { status: response.status, body: await response.text() };
    },
    [secret, path, JSON.stringify(body)] as const,
  );
}

test('a personal API token is made in Settings, shown once, used by a script, and revoked', async ({ page }) => {
  // An account no other browser test changes (its role is Engineering: health checks).
  await signIn(page, 'engineering@demo.local', undefined, '/home/settings');
  const customer = await sandboxOrgAdmin(page);
  const form = page.getByRole('form', { name: 'Make a token' });
  await form.getByLabel('Token name').fill('Group lister');
  await form.getByLabel(/Expires in/).fill('7');
  await form.getByRole('button', { name: 'Make token' }).click();
  await expect(form.getByRole('alert')).toHaveText('Choose at least one capability.');
  // Each capability says what it lets a script do; managing users is never offered.
  const groupsBox = form.getByRole('checkbox', { name: 'Customer account groups' });
  await expect(groupsBox).toHaveAccessibleDescription(/List the account groups a customer's token sees/);
  await expect(form.getByRole('checkbox', { name: 'Health checks' })).toHaveAccessibleDescription(
    /list, read and download their reports/,
  );
  await expect(form.getByRole('checkbox', { name: 'User management' })).toHaveCount(0);
  await groupsBox.check();
  await form.getByRole('button', { name: 'Make token' }).click();
  const secret = (await page.getByTestId('api-token-secret').textContent()) ?? '';
  expect(secret).toMatch(/^cet_/);
  const row = page.getByTestId('api-token-row').filter({ hasText: 'Group lister' });
  await expect(row).toContainText('active');
  await expect(row).toContainText('never');
  await expectNoAxeViolations(page);

  // What the token carries works without a session; what it does not is refused.
  const groups = await scriptCall(page, secret, '/api/account-groups', { token: customer.token });
  expect(groups.status).toBe(200);
  expect(groups.body).toContain(customer.organizationName);
  // The original service's call, as an old script posts it, answers the same groups through the token.
  const original = await scriptCall(page, secret, '/compat/reports/accountgroups7/', { OAuth: customer.token });
  expect(original.status).toBe(200);
  expect(JSON.parse(original.body)).toContainEqual(
    expect.objectContaining({ organizationName: customer.organizationName, accountGroupId: expect.any(String) }),
  );
  // The role holds health checks, the token does not carry them: the refusal names the token's capability.
  const group = JSON.parse(groups.body).accountGroups[0];
  const report = await scriptCall(page, secret, '/api/reports', {
    kind: 'ahc-v7',
    token: customer.token,
    organization: { id: group.organizationId, name: group.organizationName },
    accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
  });
  expect([report.status, JSON.parse(report.body).error.message]).toEqual([
    403,
    'This token does not carry Health checks.',
  ]);
  await page.reload();
  await expect(row).not.toContainText('never');
  // Shown once: after a reload the secret is nowhere in the page.
  await expect(page.getByTestId('api-token-secret')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(secret);

  // Revoking asks first, naming the token; Cancel (where the confirmation opens) changes nothing.
  await row.getByRole('button', { name: 'Revoke Group lister' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Revoke the token Group lister?' });
  await expect(confirmation.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmation).toBeHidden();
  await expect(row).toContainText('active');
  expect((await scriptCall(page, secret, '/api/account-groups', { token: customer.token })).status).toBe(200);
  await row.getByRole('button', { name: 'Revoke Group lister' }).click();
  await confirmation.getByRole('button', { name: 'Revoke token' }).click();
  await expect(confirmation).toBeHidden();
  await expect(row).toContainText('revoked');
  expect((await scriptCall(page, secret, '/api/account-groups', { token: customer.token })).status).toBe(401);
});
