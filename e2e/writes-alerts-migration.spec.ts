import { expect, test } from './fixtures.js';
import { orgAdminToken, platformGet } from './bulk-helpers';
import { expectNoAxeViolations, sandboxToken, signIn } from './helpers';

type Rule = { ruleId: string; ruleName: string; severity?: string };
const rulesIn = async (page: Parameters<typeof platformGet>[0], token: string, aid: string) =>
  (await platformGet<{ alertRules: Rule[] }>(page, token, `/alerts/rules?aid=${aid}`)).alertRules;

test('migrates alert rules with a plan decided per conflict, shows the results, and undoes it', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'tam@demo.local');
  const token = await orgAdminToken(page);
  const groups = (
    await platformGet<{ accountGroups: { aid: string; accountGroupName: string }[] }>(page, token, '/account-groups')
  ).accountGroups;
  const saas = groups.find((group) => group.accountGroupName === 'Acme - SaaS Apps');
  if (!saas) throw new Error('the demo world has Acme - SaaS Apps');
  const before = await rulesIn(page, token, saas.aid);

  await page.goto('/home/tools/alerts-migration');
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts Migration' })).toBeVisible();
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await expect(page.getByText('Please provide a valid OAuth token')).toBeVisible();
  await page.getByLabel('OAuth Token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page.getByLabel('Source account group').selectOption({ label: 'Acme - Data Centers' });
  await page.getByRole('button', { name: 'Load Rules' }).click();

  const rules = page.getByTestId('rules');
  await rules.getByLabel('Search rules').fill('Migration: portal');
  await expect(rules.getByTestId('picker-count')).toHaveText('0 selected · 3 shown of 10');
  await rules.getByRole('button', { name: 'Select All Rules', exact: true }).click();
  await rules.getByRole('checkbox', { name: /Migration: portal errors/ }).uncheck();
  await rules.getByRole('button', { name: 'Invert' }).click();
  await rules.getByRole('button', { name: 'Invert' }).click();
  await expect(rules.getByTestId('picker-count')).toHaveText('2 selected · 3 shown of 10');
  const latencyRow = rules.getByRole('listitem').filter({ hasText: 'Migration: portal latency' });
  await expect(latencyRow).toContainText('2 of 3 rounds: responseTime >= 500 ms');
  await expect(latencyRow).toContainText('Tests: Migration portal, Migration checkout');
  await expect(latencyRow).toContainText('Webhook: NOC webhook');
  await expect(latencyRow.getByRole('checkbox')).toBeChecked();

  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(page.getByText('Select at least one target account group')).toBeVisible();
  await page.getByTestId('targets').getByRole('checkbox', { name: 'Acme - SaaS Apps' }).check();
  await page.getByRole('button', { name: 'Preview Plan' }).click();

  const plan = page.getByRole('table', { name: 'Planned changes' });
  await expect(plan.getByRole('row', { name: /Migration: portal latency.*create/ })).toContainText(
    'Dropped test Migration checkout: No http-server test of this name in Acme - SaaS Apps',
  );
  const differences = page.getByRole('definition').filter({ hasText: 'critical' });
  await expect(differences).toHaveText('critical → major');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Apply Migration' }).click();
  await expect(
    page.getByText('Decide every conflict first: skip it, update it, or create it under a new name'),
  ).toBeVisible();
  await page.getByLabel('What to do with Migration: portal availability in Acme - SaaS Apps').selectOption('update');
  await page.getByRole('button', { name: 'Apply Migration' }).click();
  // It asks first, naming where the rules go; Cancel is where it opens, and writes nothing.
  const confirm = page.getByRole('dialog', { name: 'Migrate into Acme Corporation?' });
  await expect(confirm.getByTestId('migration-confirmation')).toHaveText(
    "Copy 2 alert rules from Acme - Data Centers into Acme - SaaS Apps (Acme Corporation): 2 writes into the customer's account.",
  );
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(await rulesIn(page, token, saas.aid)).toEqual(before);
  await page.getByRole('button', { name: 'Apply Migration' }).click();
  await confirm.getByRole('button', { name: 'Migrate now' }).click();

  await expect(page.getByTestId('migration-status')).toContainText('Finished · 2 done', { timeout: 30_000 });
  const results = page.getByRole('table', { name: 'Migration results' });
  const created = results.getByRole('row').filter({ hasText: 'Create rule' });
  await expect(created).toContainText('Migration: portal latency');
  const after = await rulesIn(page, token, saas.aid);
  const latency = after.find((rule) => rule.ruleName === 'Migration: portal latency');
  await expect(created).toContainText(latency?.ruleId ?? 'the new id');
  expect(after.find((rule) => rule.ruleName === 'Migration: portal availability')?.severity).toBe('major');
  await expect(page.getByRole('link', { name: 'Download results (CSV)' })).toHaveAttribute('href', /format=csv$/);
  await expectNoAxeViolations(page);

  // Undo asks first, in a dialog that opens on Cancel.
  await page.getByRole('button', { name: 'Undo Migration' }).click();
  const undo = page.getByRole('dialog', { name: 'Undo Migration' });
  await expect(undo.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await undo.getByRole('button', { name: 'Undo Migration' }).click();
  await expect(page.getByRole('heading', { name: /Undo of a migration/ })).toBeVisible();
  await expect(page.getByTestId('migration-status')).toContainText('Finished · 2 done', { timeout: 30_000 });
  const restored = await rulesIn(page, token, saas.aid);
  expect(restored.map((rule) => [rule.ruleName, rule.severity]).sort()).toEqual(
    before.map((rule) => [rule.ruleName, rule.severity]).sort(),
  );
});

test("lists the source's recipients dropped in another organization, keeps them when asked, and stops a token that cannot write", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'tam@demo.local');
  const acme = await sandboxToken(page, 'org-admin', 'Acme Corporation');
  const globex = await sandboxToken(page, 'org-admin', 'Globex Financial');
  const readOnly = await sandboxToken(page, 'read-only');

  const chooseSource = async (token: string) => {
    await page.goto('/home/tools/alerts-migration');
    await page.getByLabel('OAuth Token', { exact: true }).fill(token);
    await page.getByRole('button', { name: 'Load Account Groups' }).click();
    await page.getByLabel('Source account group').selectOption({ label: 'Acme - Data Centers' });
    await page.getByRole('button', { name: 'Load Rules' }).click();
    const rules = page.getByTestId('rules');
    await rules.getByLabel('Search rules').fill('Migration: portal latency');
    await rules.getByRole('checkbox', { name: /Migration: portal latency/ }).check();
  };
  const plan = page.getByRole('table', { name: 'Planned changes' });
  const dropped = plan.getByRole('list', { name: 'Dropped from Migration: portal latency' });

  await chooseSource(acme.token);
  await page.getByLabel('Into another organization (with its own Org Admin token)').check();
  await page.getByLabel('OAuth Token of the target organization').fill(globex.token);
  await page.getByRole('button', { name: 'Load Account Groups' }).nth(1).click();
  await page.getByTestId('targets').getByRole('checkbox').first().check();
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(dropped).toContainText(
    "Dropped recipient noc@acme.example.com: An email address of the source's organization: kept in another organization only when asked",
  );
  await page.getByLabel(/Keep the email recipients in the other organization/).check();
  await expect(plan).toBeHidden();
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(dropped).toBeVisible();
  await expect(dropped).not.toContainText('recipient');
  await expect(page.getByRole('alert').filter({ hasText: 'cannot be applied' })).toHaveCount(0);

  await chooseSource(readOnly.token);
  await page.getByTestId('targets').getByRole('checkbox', { name: 'Acme - SaaS Apps' }).check();
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  const stopped = page.getByRole('alert').filter({ hasText: 'This migration cannot be applied' });
  await expect(stopped).toContainText(
    'The token cannot write into Acme - SaaS Apps: the platform refused a write that changes nothing (the "Edit alert rules" permission is needed).',
  );
  await expect(page.getByRole('button', { name: 'Apply Migration' })).toBeDisabled();
});

test('into another organization: the plan names the rules that could never alert, Apply names where, and the source customer sees both sides', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'tam@demo.local');
  const acme = await sandboxToken(page, 'org-admin', 'Acme Corporation');
  const globex = await sandboxToken(page, 'org-admin', 'Globex Financial');
  await page.goto('/home/tools/alerts-migration');
  await page.getByLabel('OAuth Token', { exact: true }).fill(acme.token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page.getByLabel('Source account group').selectOption({ label: 'Acme - Data Centers' });
  await page.getByRole('button', { name: 'Load Rules' }).click();
  const rules = page.getByTestId('rules');
  await rules.getByLabel('Search rules').fill('Migration: portal latency');
  await rules.getByRole('checkbox', { name: /Migration: portal latency/ }).check();
  await page.getByLabel('Into another organization (with its own Org Admin token)').check();
  await page.getByLabel('OAuth Token of the target organization').fill(globex.token);
  await page.getByRole('button', { name: 'Load Account Groups' }).nth(1).click();
  const targetName = 'Globex - Trading Platform';
  await page.getByTestId('targets').getByRole('checkbox', { name: targetName }).check();
  await page.getByRole('button', { name: 'Preview Plan' }).click();

  // Its tests, recipient and integrations stay behind: the plan says so, with the choice to leave it out.
  const silent = page.getByRole('status', { name: 'Rules unable to alert' });
  await expect(silent).toContainText(
    '1 rule would arrive with no test and no recipient, so it could never alert anyone:',
  );
  await expect(silent.getByRole('listitem')).toHaveText([`Migration: portal latency in ${targetName}`]);
  await silent.getByRole('button', { name: 'Leave it out' }).click();
  const plan = page.getByRole('table', { name: 'Planned changes' });
  await expect(plan.getByRole('row', { name: /Migration: portal latency/ })).toContainText(
    'Left out: it would arrive with no test and no recipient, so it could never alert anyone',
  );
  await expect(silent).toBeHidden();
  await page.getByLabel('A rule that would arrive with no test and no recipient').selectOption('keep');
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(silent).toBeVisible();

  await page.getByRole('button', { name: 'Apply Migration' }).click();
  const confirm = page.getByRole('dialog', { name: `Migrate into ${globex.organizationName}?` });
  await expect(confirm.getByTestId('migration-confirmation')).toHaveText(
    `Copy 1 alert rule from Acme - Data Centers into ${targetName} (${globex.organizationName}, another organization): 1 write into the customer's account.`,
  );
  await expect(confirm).toContainText(
    `1 rule arrives with no test and no recipient: Migration: portal latency in ${targetName}.`,
  );
  await confirm.getByRole('button', { name: 'Migrate now' }).click();
  await expect(page.getByTestId('migration-status')).toContainText('Finished · 1 done', { timeout: 30_000 });

  await page.goto(`/home/customers/${encodeURIComponent(acme.organizationId)}`);
  await expect(page.getByRole('row').filter({ hasText: 'Alerts migration' }).first()).toContainText(
    `Acme - Data Centers → ${targetName}`,
  );
});
