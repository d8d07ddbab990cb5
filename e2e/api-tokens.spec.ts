import { expect, test, type Page } from './fixtures.js';
import { csrf, expectNoAxeViolations, sandboxOrgAdmin, signIn, signInAsNewUser } from './helpers';

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

test('"Sign out everywhere" lists the personal API tokens that would keep working, and revokes them when asked', async ({
  page,
}) => {
  const { email, password } = await signInAsNewUser(page, 'TAM', '/home/settings/sessions');
  const make = async (name: string) => {
    const made = await page.request.post('/api/account/api-tokens', {
      data: { name, expiresInDays: 7, capabilities: ['reporting'] },
      headers: await csrf(page),
    });
    expect(made.status()).toBe(201);
    return ((await made.json()) as { secret: string }).secret;
  };
  /** What a script using the token gets from its reports list: 200, or 401 once the token ended. */
  const scriptStatus = (secret: string) =>
    page.evaluate(
      async (token) =>
        (await fetch('/api/reports', { credentials: 'omit', headers: { authorization: `Bearer ${token}` } })).status,
      secret,
    );
  const kept = await make('Nightly export');

  // Not asked to: the sessions end, the token keeps working, as the dialog said.
  await page.reload();
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  let asked = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(asked.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(asked.getByRole('list', { name: 'Your personal API tokens' }).getByRole('listitem')).toHaveText([
    /^Nightly export \(cet_.{4}…\) · last used never · expires /,
  ]);
  await expect(asked).toContainText('it keeps working after you sign out, unless you revoke it too');
  await expectNoAxeViolations(page, '[role="dialog"]');
  await asked.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await scriptStatus(kept)).toBe(200);

  // Asked to: both tokens end with the sessions.
  await signIn(page, email, password, '/home/settings/sessions');
  const second = await make('Weekly export');
  await page.reload();
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  asked = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(asked.getByTestId('live-api-token')).toHaveCount(2);
  await asked.getByRole('checkbox', { name: /Revoke these 2 tokens too/ }).check();
  await asked.getByRole('button', { name: 'Sign out and revoke' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect([await scriptStatus(kept), await scriptStatus(second)]).toEqual([401, 401]);

  await signIn(page, email, password, '/home/settings/api-tokens');
  for (const name of ['Nightly export', 'Weekly export'])
    await expect(page.getByTestId('api-token-row').filter({ hasText: name })).toContainText(
      'Revoked when its owner signed out everywhere',
    );
});
