import { expect, test } from './fixtures.js';
import {
  orgAdminToken,
  platformGet,
  groupsOf,
  testNamesIn,
  agentsIn,
  escape,
  toast,
  card,
  chooseGroups,
  fillTemplate,
} from './bulk-helpers';
import { expectNoAxeViolations, sandboxToken, signIn } from './helpers';

test.beforeEach(async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'tam@demo.local');
});

test('the hub: its bulk tests tab is the stepper variant, and labels and users run for real', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 2);
  await page.goto('/home/tools/bulk-operations');
  await expect(page.getByRole('tab', { name: 'Bulk Tests' })).toHaveAttribute('aria-selected', 'true');
  await chooseGroups(page, token, groups, 'Continue');
  await expect(page.getByRole('list', { name: 'Progress' }).getByLabel('completed')).toHaveCount(2);
  await expect(card(page, 0).getByLabel('URL *')).toBeVisible();
  await card(page, 0).getByLabel('Test Type').selectOption('agent-to-server');
  await expect(card(page, 0).getByLabel('Domain/Server *')).toBeVisible();
  await expect(card(page, 0).getByLabel('Port *')).toHaveValue('80');

  await page.getByRole('tab', { name: 'Bulk Labels' }).click();
  await expect(page).toHaveURL(/tab=labels/);
  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  for (const group of groups)
    await page
      .getByRole('list', { name: 'Account groups' })
      .getByRole('checkbox', { name: new RegExp(`^${escape(group.accountGroupName)}\\b`) })
      .check();
  await page.getByRole('button', { name: 'Load Tests' }).click();
  const tests = page.getByRole('region', { name: 'Tests' });
  for (const group of groups)
    await tests.getByRole('group', { name: group.accountGroupName }).getByRole('checkbox').first().check();
  await page.getByLabel('Label key').fill('Owner');
  await page.getByLabel('Label value').fill('E2E Team');
  await expect(page.getByTestId('labels-plan')).toHaveText('The label goes on 2 tests in 2 account groups.');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Apply Label' }).click();
  await expect(toast(page, 'All 2 label assignments made successfully')).toBeVisible({ timeout: 20_000 });
  const tags = (
    await platformGet<{ tags: { key: string; value: string; assignments?: unknown[] }[] }>(page, token, '/tags')
  ).tags;
  expect(tags.filter((tag) => tag.key === 'Owner' && tag.value === 'E2E Team')).toHaveLength(1);

  await page.getByRole('tab', { name: 'Bulk Users' }).click();
  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page
    .getByRole('list', { name: 'Account groups' })
    .getByRole('checkbox', { name: new RegExp(`^${escape(groups[0]?.accountGroupName ?? '')}\\b`) })
    .check();
  const role = page.getByLabel('Role');
  await expect(role.locator('option')).not.toHaveCount(1);
  await role.selectOption({ index: 1 });
  await page.getByLabel(/^Email addresses/).fill('name,email\nAna Silva,ana.e2e@customer.example\nnot-an-address');
  await expect(page.getByTestId('rejected-lines')).toContainText('not-an-address');
  await expect(page.getByTestId('users-plan')).toContainText('1 person will be invited into 1 account group');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Invite Users' }).click();
  await expect(toast(page, 'All 1 users invited successfully')).toBeVisible({ timeout: 20_000 });
  const users = (await platformGet<{ users: { email: string }[] }>(page, token, '/users')).users;
  expect(users.map((user) => user.email)).toContain('ana.e2e@customer.example');
});

test('duplicate agents: scan, Select Oldest, typed DELETE, results with the per-agent error', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 2);
  // The stale agent of the first group's duplicate pair gets a test, so the platform refuses to delete it.
  const enterprise = (await agentsIn(page, token, groups[0]?.aid ?? '')).filter(
    (agent) => agent.agentType === 'enterprise',
  );
  const pair = enterprise.filter((agent) =>
    enterprise.some(
      (other) =>
        other.agentId !== agent.agentId &&
        other.ipAddresses?.[0] === agent.ipAddresses?.[0] &&
        other.location === agent.location,
    ),
  );
  const stale = pair.sort((a, b) => (a.lastSeen ?? '').localeCompare(b.lastSeen ?? ''))[0];
  const pinned = await page.request.post(`/sandbox/te/v7/tests/http-server?aid=${groups[0]?.aid}`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      testName: 'E2E Pins an agent',
      interval: 300,
      url: 'https://pin.example.com',
      agents: [{ agentId: stale?.agentId }],
    },
  });
  expect(pinned.status()).toBe(201);

  await page.goto('/home/tools/bulk-operations?tab=agents');
  await page.getByLabel('OAuth Token').fill('too-short');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'The OAuth token must be at least 10 characters')).toBeVisible();
  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: 'Next' }).click();
  const list = page.getByRole('list', { name: 'Account groups' });
  await list.getByRole('checkbox').first().check();
  // Back from step 2 to 1 clears the lists.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(list.getByRole('checkbox', { checked: true })).toHaveCount(0);
  for (const group of groups)
    await list.getByRole('checkbox', { name: new RegExp(`^${escape(group.accountGroupName)}\\b`) }).check();
  await page.getByRole('button', { name: 'Scan for Duplicates' }).click();

  const duplicates = page.getByTestId('duplicate-group');
  await expect(duplicates).toHaveCount(2);
  await expect(duplicates.first()).toContainText(/2 agents share IP address .+ in .+/);
  await page.getByRole('button', { name: 'Select Oldest' }).click();
  const marked = page.getByRole('checkbox', { name: /^Delete /, checked: true });
  await expect(marked).toHaveCount(2);
  await expect(page.getByRole('checkbox', { name: `Delete ${stale?.agentName}` })).toBeChecked();
  const deleteButton = page.getByRole('button', { name: 'Delete 2 Agents' });
  await expect(deleteButton).toBeDisabled();
  await expectNoAxeViolations(page);
  await page.getByLabel(/Type DELETE to confirm/).fill('DELETE');
  await deleteButton.click();

  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByTestId('run-state')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(results.getByTestId('total')).toHaveText('2');
  await expect(results.getByTestId('execution-time')).toHaveText(/ms$/);
  const refused = results.getByTestId('run-item').filter({ hasText: stale?.agentName ?? '' });
  await expect(refused).toHaveAttribute('data-status', 'failed');
  await expect(refused).toContainText('Agent is currently in use by active tests');
  await expectNoAxeViolations(page);
  const failed = Number(await results.getByTestId('failed').textContent());
  await expect(results.getByTestId('successful')).toHaveText(String(2 - failed));
  const remaining = (await agentsIn(page, token, groups[0]?.aid ?? '')).map((agent) => agent.agentId);
  expect(remaining).toContain(stale?.agentId);
});

test('one test is "1 test"; after a run the form is read-only until a new session; the sidebar stays in view', async ({
  page,
}) => {
  const token = await orgAdminToken(page);
  const [group] = (await groupsOf(page, token)).slice(5, 6);
  if (!group) throw new Error('the sandbox has six groups');
  const cloud = (await agentsIn(page, token, group.aid)).find((agent) => agent.agentType === 'cloud');
  await page.goto('/home/tools/bulk-tests');
  await chooseGroups(page, token, [group]);
  await fillTemplate(page, 0, {
    name: `E2E Lone ${Date.now()}`,
    url: 'https://lone.example.com',
    agents: [cloud?.agentName ?? ''],
  });
  for (let count = 0; count < 3; count++) await page.getByRole('button', { name: 'Add Another Test Template' }).click();

  // Step 3 is long: scrolled to its end, the progress sidebar is still on screen.
  const progress = page.getByRole('complementary', { name: 'Progress' });
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).scrollIntoViewIfNeeded();
  const box = await progress.boundingBox();
  expect(box && box.y >= 0 && box.y < (page.viewportSize()?.height ?? 0)).toBe(true);

  for (let index = 3; index >= 1; index--) await card(page, index).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'All 1 test created successfully!')).toBeVisible({ timeout: 20_000 });
  const run = page.url();
  // Read-only: what was run stays as it was (running the same templates again creates nothing twice).
  await expect(card(page, 0).getByLabel('Test Name')).toBeDisabled();
  await expect(card(page, 0).getByRole('list', { name: 'Agents' }).getByRole('checkbox').first()).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add Another Test Template' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Back', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Start New Bulk Test Session' }).click();
  await expect(page.getByLabel('OAuth Token')).toBeEnabled();
  await expect(page.getByLabel('OAuth Token')).toHaveValue('');

  // The run is undone from its address: its one test goes again.
  await page.goto(run);
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await page.getByRole('dialog').getByLabel('OAuth Token').fill(token);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 1 test' }).click();
  await expect(toast(page, 'All 1 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
});

test("a name the group already has is a conflict in the plan: created with a suffix when asked, the customer's test untouched", async ({
  page,
}) => {
  const token = await orgAdminToken(page);
  const [group] = (await groupsOf(page, token)).slice(5, 6);
  if (!group) throw new Error('the sandbox has six groups');
  const [theirs] = await testNamesIn(page, token, group.aid);
  if (!theirs) throw new Error('the group has tests');
  const cloud = (await agentsIn(page, token, group.aid)).find((agent) => agent.agentType === 'cloud');
  await page.goto('/home/tools/bulk-tests');
  await chooseGroups(page, token, [group]);
  await fillTemplate(page, 0, { name: theirs, url: 'https://taken.example.com', agents: [cloud?.agentName ?? ''] });

  await page.getByRole('button', { name: 'Preview Plan' }).click();
  const plan = page.getByTestId('plan');
  await expect(plan).toContainText('0 to create, 1 already exist and will be skipped');
  await plan.getByRole('radio', { name: /Create mine with a suffix/ }).check();
  await expect(plan).toContainText('1 already exist and will be created with a suffix');
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'All 1 test created successfully!')).toBeVisible({ timeout: 20_000 });
  const names = await testNamesIn(page, token, group.aid);
  expect(names.filter((name) => name === theirs)).toHaveLength(1);
  expect(names).toContain(`${theirs} (2)`);

  // Undo deletes the run's test only.
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 1 test' }).click();
  await expect(toast(page, 'All 1 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
  const after = await testNamesIn(page, token, group.aid);
  expect(after).toContain(theirs);
  expect(after).not.toContain(`${theirs} (2)`);
});

test("a refused token at the account-group step says so in both of the spec's words", async ({ page }) => {
  const revoked = await sandboxToken(page, 'revoked');
  await page.goto('/home/tools/bulk-tests');
  await page.getByLabel('OAuth Token').fill(revoked.token);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'The provided OAuth token is invalid or has expired.')).toContainText(
    'Authentication Failed',
  );
  await expect(toast(page, 'Invalid OAuth token. Please check your credentials.')).toContainText('Unauthorized');
});
