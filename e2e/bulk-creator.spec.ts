import { expect, test } from './fixtures.js';
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
import { expectNoAxeViolations, signIn, signInAsNewUser } from './helpers';

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
  // The results come above the spent plan, focused and in view: what the person reads next.
  await expect(results).toBeFocused();
  await expect(results).toBeInViewport();
  const resultsBox = await results.boundingBox();
  const planBox = await page.getByTestId('plan').boundingBox();
  expect(resultsBox && planBox && resultsBox.y < planBox.y).toBe(true);
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
  await expect(page.getByRole('dialog')).toContainText('Delete 6 tests created in ');
  for (const group of groups) await expect(page.getByRole('dialog')).toContainText(group.accountGroupName);
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
  const partialRun = page.url();
  expect(partialRun).toMatch(/\/home\/tools\/bulk-tests\?run=/);

  // The toast opens the run from wherever the user went meanwhile (here, a new session), and the run links to itself.
  await page.getByRole('button', { name: 'Start New Bulk Test Session' }).click();
  await expect(page).toHaveURL(/\/home\/tools\/bulk-tests$/);
  await partial.getByRole('link', { name: 'Open the run' }).click();
  await expect(page).toHaveURL(partialRun);
  const { pathname, search } = new URL(partialRun);
  await expect(
    page.getByRole('region', { name: 'Results' }).getByRole('link', { name: 'Link to this run' }),
  ).toHaveAttribute('href', `${pathname}${search}`);
  const failedItems = page.getByTestId('run-item').and(page.locator('[data-status="failed"]'));
  await expect(failedItems).toHaveCount(2);
  await expect(failedItems.first()).toContainText('None of the chosen agents is in this account group');

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
  // It names what goes and where, and opens on Cancel.
  await expect(page.getByRole('dialog')).toContainText(
    `Delete 1 test created in ${groups[0]?.accountGroupName ?? ''}?`,
  );
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
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
