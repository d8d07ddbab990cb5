import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  orgAdminToken,
  platformGet,
  groupsOf,
  testNamesIn,
  agentsIn,
  setScenario,
  toast,
  card,
  chooseGroups,
  fillTemplate,
} from './bulk-helpers';
import { expectNoAxeViolations, sandboxToken, signIn, signInAsNewUser } from './helpers';

test.beforeEach(async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'tam@demo.local');
});

test('2 templates x 3 account groups: plan, create, skip on a second run, undo exactly those tests', async ({
  page,
}) => {
  // A user of its own: the recent runs counted at the end are this test's only.
  await signInAsNewUser(page, 'TAM');
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 3);
  const cloud = (await agentsIn(page, token, groups[0]?.aid ?? '')).filter((agent) => agent.agentType === 'cloud');
  const before = await Promise.all(groups.map((group) => testNamesIn(page, token, group.aid)));

  await page.goto('/home/tools/bulk-tests');
  await expect(page.getByText('Alpha Development')).toBeVisible();
  await chooseGroups(page, token, groups);
  await expect(page.getByTestId('info-agents')).not.toHaveText('0');

  await fillTemplate(page, 0, {
    name: 'E2E Shop front',
    url: 'https://shop.example.com',
    agents: [cloud[0]?.agentName ?? ''],
  });
  await page.getByRole('button', { name: 'Add Another Test Template' }).click();
  await expect(page.getByTestId('info-templates')).toHaveText('2');
  await fillTemplate(page, 1, {
    name: 'E2E Shop DNS',
    type: 'dns-trace',
    domain: 'shop.example.com',
    agents: [cloud[1]?.agentName ?? ''],
  });
  await card(page, 1).getByText('Agents per account group').click();
  await expect(card(page, 1).getByTestId('agent-coverage')).toContainText(
    `${groups[2]?.accountGroupName}: ${cloud[1]?.agentName}`,
  );

  await page.getByRole('button', { name: 'Preview Plan' }).click();
  for (const templateIndex of [0, 1])
    for (const group of groups)
      await expect(page.getByTestId(`cell-${templateIndex}-${group.aid}`)).toHaveAttribute('data-status', 'create');
  await expect(page.getByTestId('plan')).toContainText('6 to create, 0 already exist');
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'All 6 tests created successfully!')).toBeVisible({ timeout: 20_000 });
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByTestId('total')).toHaveText('6');
  await expect(results.getByTestId('successful')).toHaveText('6');
  await expect(results.getByTestId('failed')).toHaveText('0');
  await expect(results.getByTestId('execution-time')).toHaveText(/^[\d,]+ ms$/);
  await expect(results.getByTestId('run-item')).toHaveCount(6);
  await expectNoAxeViolations(page);
  const created = (
    await platformGet<{ tests: { testId: string; testName: string }[] }>(page, token, `/tests?aid=${groups[0]?.aid}`)
  ).tests.find((test) => test.testName === 'E2E Shop front');
  await expect(results.getByTestId('run-item').first()).toContainText(
    new RegExp(`E2E Shop front.*id ${created?.testId ?? 'missing'}\\b`),
  );
  for (const [index, group] of groups.entries()) {
    const names = await testNamesIn(page, token, group.aid);
    expect(names.filter((name) => name.startsWith('E2E Shop'))).toHaveLength(2);
    expect(names.length).toBe((before[index]?.length ?? 0) + 2);
  }

  // The run has ended: Execute waits for a change. The same templates in a new session create nothing twice.
  await expect(page.getByRole('button', { name: 'Execute Bulk Tests' })).toBeDisabled();
  await expect(page.getByTestId('execute-hint')).toHaveText('This run has ended: to run again, start a new session.');
  const firstRun = page.url();
  await page.getByRole('button', { name: 'Start New Bulk Test Session' }).click();
  await chooseGroups(page, token, groups);
  await fillTemplate(page, 0, {
    name: 'E2E Shop front',
    url: 'https://shop.example.com',
    agents: [cloud[0]?.agentName ?? ''],
  });
  await page.getByRole('button', { name: 'Add Another Test Template' }).click();
  await fillTemplate(page, 1, {
    name: 'E2E Shop DNS',
    type: 'dns-trace',
    domain: 'shop.example.com',
    agents: [cloud[1]?.agentName ?? ''],
  });
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(page.getByTestId('plan')).toContainText('0 to create, 6 already exist');
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'Nothing to create: every test already exists')).toBeVisible({ timeout: 20_000 });
  await expect(results.getByTestId('skipped')).toHaveText('6');

  // Undo the first run (back in the browser's history, past the new session, the token still in memory):
  // exactly its six tests go, everything else stays.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(firstRun);
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 6 tests' }).click();
  await expect(toast(page, 'All 6 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Undo Results' })).toBeVisible();
  for (const [index, group] of groups.entries())
    expect(await testNamesIn(page, token, group.aid)).toEqual(before[index]);
  await page.getByRole('button', { name: 'the original run' }).click();
  await expect(page.getByTestId('undone-note')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo this run' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Start New Bulk Test Session' }).click();
  await expect(page).toHaveURL(/\/home\/tools\/bulk-tests$/);
  // The three runs (create, create again, undo) are listed for later; the first one is marked undone.
  const recent = page.getByRole('region', { name: 'Recent runs' }).getByTestId('recent-run');
  await expect(recent).toHaveCount(3);
  await expect(recent.filter({ hasText: 'undone' })).toHaveCount(1);
  await expect(recent.filter({ hasText: 'undone' })).toContainText('6 done, 0 failed, 0 skipped of 6');
  await expect(page.getByLabel('OAuth Token')).toHaveValue('');
  // The token that worked is offered again, as its last 8 characters.
  await page.getByRole('button', { name: `…${token.slice(-8)}` }).click();
  await expect(page.getByLabel('OAuth Token')).toHaveValue(token);
});

test('the execution time is what the user waited, from the click to the results; Execute then waits for a change', async ({
  page,
}) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 1);
  const cloud = (await agentsIn(page, token, groups[0]?.aid ?? '')).find((agent) => agent.agentType === 'cloud');
  await page.goto('/home/tools/bulk-tests');
  await chooseGroups(page, token, groups);
  await fillTemplate(page, 0, {
    name: 'E2E Waited for',
    url: 'https://waited.example.com',
    agents: [cloud?.agentName ?? ''],
  });
  // A slow network: the request to start the run takes 3 s to reach the server.
  await page.route('**/api/bulk/runs', async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.fallback();
  });
  const clicked = Date.now();
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'All 1 test created successfully!')).toBeVisible({ timeout: 20_000 });
  const waited = Date.now() - clicked;
  const shown = await page.getByRole('region', { name: 'Results' }).getByTestId('execution-time').textContent();
  const ms = Number(/^([\d,]+) ms$/.exec(shown ?? '')?.[1]?.replaceAll(',', ''));
  expect(ms).toBeGreaterThanOrEqual(3000);
  expect(ms).toBeLessThanOrEqual(waited);

  // Ended: Execute is disabled until what it would send changes (here, the answer for a name that is taken).
  const execute = page.getByRole('button', { name: 'Execute Bulk Tests' });
  await expect(execute).toBeDisabled();
  await page.getByRole('button', { name: 'Preview Plan' }).click();
  await expect(page.getByTestId('plan')).toContainText('0 to create, 1 already exist');
  await page.getByRole('radio', { name: /Create mine with a suffix/ }).check();
  await expect(execute).toBeEnabled();
  await page.getByRole('radio', { name: 'Skip it' }).check();
  await expect(execute).toBeDisabled();

  // Undone (the token is in memory): the one test this run made goes again.
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 1 test' }).click();
  await expect(toast(page, 'All 1 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
  expect(await testNamesIn(page, token, groups[0]?.aid ?? '')).not.toContain('E2E Waited for');
});

test('each test type asks for its own fields, with the spec messages', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 1);
  // Five remembered tokens: three are offered, newest first, as their last 8 characters.
  await page.goto('/home/tools/bulk-tests');
  // Kept for the signed-in user (see the shell tests for what happens when the session ends).
  const { user } = (await (await page.request.get('/api/session')).json()) as { user: { id: string } };
  await page.evaluate(
    (userId) =>
      localStorage.setItem(
        `ce.user.${userId}.recent-tokens.bulk-tests`,
        JSON.stringify([
          'token-five-aaaa1111',
          'token-four-bbbb2222',
          'token-three-cccc3333',
          'token-two-dddd4444',
          'one',
        ]),
      ),
    user.id,
  );
  await page.reload();
  await expect(page.getByRole('group', { name: 'Recent tokens' }).getByRole('button')).toHaveText([
    '…aaaa1111',
    '…bbbb2222',
    '…cccc3333',
  ]);
  await expect(page.getByLabel('OAuth Token')).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'Please provide a valid OAuth token')).toBeVisible();
  await page.getByLabel('OAuth Token').fill((await sandboxToken(page, 'revoked')).token);
  await page.getByRole('button', { name: 'Next' }).click();
  const refused = toast(page, 'The provided OAuth token is invalid or has expired. Please check your credentials.');
  await expect(refused).toContainText('Authentication Failed');
  await expect(page.getByRole('heading', { name: 'Authentication' })).toBeVisible();

  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: 'Next' }).click();
  // Step 2 searches account group and organization names.
  await page.getByLabel('Search account groups').fill('no such group');
  await expect(page.getByRole('list', { name: 'Account groups' }).getByRole('checkbox')).toHaveCount(0);
  await page.getByLabel('Search account groups').fill('ACME CORP');
  await expect(page.getByRole('list', { name: 'Account groups' }).getByRole('checkbox')).toHaveCount(6);
  await page.getByLabel('Search account groups').fill('');
  await page.getByRole('button', { name: 'Back' }).click();
  await chooseGroups(page, token, groups);

  const only = card(page, 0);
  await only.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'At least one test template is required')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(1);
  await page.getByRole('button', { name: 'Add Another Test Template' }).click();
  await card(page, 1).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('template-card')).toHaveCount(1);

  // The defaults and choices of a card.
  await expect(only.getByLabel('Test Type')).toHaveValue('http-server');
  await expect(only.getByLabel('Interval').locator('option')).toHaveText([
    '1 minute',
    '2 minutes',
    '5 minutes',
    '10 minutes',
    '15 minutes',
    '30 minutes',
    '1 hour',
  ]);
  await expect(only.getByLabel('Interval')).toHaveValue('300');
  await expect(only.getByLabel('Enable alerts')).toBeChecked();
  await only.getByRole('button', { name: 'Select All Agents', exact: true }).click();
  const agentCount = await only.getByRole('list', { name: 'Agents' }).getByRole('checkbox').count();
  expect(agentCount).toBeGreaterThan(1);
  await expect(only.getByText(`Agents (${agentCount} selected)`)).toBeVisible();
  await only.getByRole('button', { name: 'Deselect All Agents' }).click();
  await expect(only.getByText('Agents (0 selected)')).toBeVisible();

  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'Please complete all test configurations')).toBeVisible();
  await expect(only).toContainText('Test name is required');
  await expect(only).toContainText('URL must start with http:// or https://');
  await expect(only).toContainText('Select at least one agent');
  await only.getByLabel('URL').fill('ftp://files.example.com');
  await expect(only).toContainText('URL must start with http:// or https://');
  await only.getByLabel('URL').fill('https://files.example.com');
  await expect(only).not.toContainText('URL must start with');

  await only.getByLabel('Test Type').selectOption('page-load');
  await expect(only.getByLabel('URL')).toHaveValue('https://files.example.com');
  await only.getByLabel('Test Type').selectOption('dns-trace');
  await expect(only.getByLabel('URL')).toHaveCount(0);
  await expect(only).toContainText('Domain is required');
  await only.getByLabel('Test Type').selectOption('dns-server');
  await expect(only).toContainText('Domain is required');
  await expect(only).toContainText('Enter at least one DNS server');
  await only.getByLabel('Test Type').selectOption('agent-to-server');
  await expect(only.getByLabel('Port')).toHaveValue('80');
  await only.getByLabel('Port').fill('70000');
  await expect(only).toContainText('Port must be between 1 and 65535');
  await only.getByLabel('Port').fill('443');
  await expect(only).not.toContainText('Port must be');
  await only.getByLabel('Domain').fill('shop.example.com');
  await expect(only).not.toContainText('Domain is required');
  await only.getByLabel('Test Type').selectOption('bgp');
  await expect(only).toContainText('Enter a prefix such as 203.0.113.0/24');
  await expect(only).not.toContainText('Select at least one agent');

  // Templates files are judged by their content, whatever their name.
  const importFile = (name: string, content: string) =>
    page
      .getByLabel('Templates file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
  await importFile('templates.json', 'testName,testType\nShop,http-server');
  await expect(toast(page, 'This file is not a templates file: it is not JSON')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(1);
  const file = {
    format: 'ce-toolkit/bulk-test-templates',
    version: 1,
    templates: [
      { testName: 'Imported web', url: 'https://imported.example.com' },
      { testName: 'Imported port', testType: 'agent-to-server', domain: 'imported.example.com', port: 8443 },
    ],
  };
  await importFile('anything.txt', JSON.stringify(file));
  await expect(toast(page, '2 templates imported')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(2);
  await expect(card(page, 1).getByLabel('Port')).toHaveValue('8443');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Templates' }).click();
  const exported = JSON.parse(await readFile((await (await downloading).path()) ?? '', 'utf8'));
  expect(exported.templates.map((template: { testName: string }) => template.testName)).toEqual([
    'Imported web',
    'Imported port',
  ]);
});

test('partial and failed runs end with the spec toasts and say per test what went wrong', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(3, 6);
  const [first, second] = await Promise.all(groups.slice(0, 2).map((group) => agentsIn(page, token, group.aid)));
  const onlyInFirst = first?.find(
    (agent) => agent.agentType === 'enterprise' && !second?.some((other) => other.agentName === agent.agentName),
  );
  if (!onlyInFirst) throw new Error('the sandbox has an enterprise agent per group');

  await page.goto('/home/tools/bulk-tests');
  await chooseGroups(page, token, groups);
  await fillTemplate(page, 0, {
    name: 'E2E Branch check',
    url: 'https://branch.example.com',
    agents: [onlyInFirst.agentName],
  });
  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  const partial = toast(page, '1/3 tests created successfully');
  await expect(partial).toBeVisible({ timeout: 20_000 });
  await expect(partial).toContainText('Partial Success');
  const failedItems = page.getByTestId('run-item').and(page.locator('[data-status="failed"]'));
  await expect(failedItems).toHaveCount(2);
  await expect(failedItems.first()).toContainText('None of the chosen agents is in this account group');

  const partialRun = page.url();

  // The platform refuses every write: nothing is created, and the page says so. (After a run the form
  // is read-only: changed templates go in a new session.)
  await page.getByRole('button', { name: 'Start New Bulk Test Session' }).click();
  await chooseGroups(page, token, groups);
  await fillTemplate(page, 0, {
    name: 'E2E Never created',
    url: 'https://branch.example.com',
    agents: [onlyInFirst.agentName],
  });
  await setScenario(page, { errorRate: 1, errorStatus: 500, errorMethod: 'POST' });
  try {
    await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
    await expect(toast(page, 'Failed to create any tests')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Results' }).getByTestId('successful')).toHaveText('0');
  } finally {
    await setScenario(page, null);
  }
  expect(await testNamesIn(page, token, groups[0]?.aid ?? '')).not.toContain('E2E Never created');

  // Undoing the partial run deletes its one test (opened by its address, the token is asked again).
  await page.goto(partialRun);
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await page.getByRole('dialog').getByLabel('OAuth Token').fill(token);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 1 test' }).click();
  await expect(toast(page, 'All 1 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
  expect(await testNamesIn(page, token, groups[0]?.aid ?? '')).not.toContain('E2E Branch check');
});

test('a run carries on through a page reload and ends with its toast', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 3);
  const cloud = (await agentsIn(page, token, groups[0]?.aid ?? '')).find((agent) => agent.agentType === 'cloud');
  await page.goto('/home/tools/bulk-tests');
  await chooseGroups(page, token, groups);
  await fillTemplate(page, 0, {
    name: 'E2E Survives reload',
    url: 'https://reload.example.com',
    agents: [cloud?.agentName ?? ''],
  });
  // A slow platform spreads the run over several seconds (reading the groups, then creating).
  await setScenario(page, { latencyMs: 2000 });
  try {
    await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
    await expect(page.getByRole('button', { name: 'Creating Tests...' })).toBeDisabled();
    await expect(page).toHaveURL(/[?&]run=/);
    await page.reload();
    await expect(page.getByTestId('run-state')).toContainText('Running on the server', { timeout: 10_000 });
    await expect(toast(page, 'All 3 tests created successfully!')).toBeVisible({ timeout: 25_000 });
    for (const group of groups)
      await expect(page.getByTestId(`cell-0-${group.aid}`)).toHaveAttribute('data-status', 'done');
  } finally {
    await setScenario(page, null);
  }
  for (const group of groups)
    expect((await testNamesIn(page, token, group.aid)).filter((name) => name === 'E2E Survives reload')).toHaveLength(
      1,
    );
  await page.getByRole('button', { name: 'Undo this run' }).click();
  await page.getByRole('dialog').getByLabel('OAuth Token').fill(token);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete 3 tests' }).click();
  await expect(toast(page, 'All 3 tests deleted successfully')).toBeVisible({ timeout: 20_000 });
});
