import { expect, test, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import {
  chooseCustomer,
  csrf,
  expectNoAxeViolations,
  sandboxOrgAdmin,
  sandboxTokens,
  signInAsNewUser,
} from './helpers';
import { createWatch, runWatchNow, type Admin } from './watch-helpers';

/** Today, as the time tracker's rows date their work. */
const today = () => new Date().toISOString().slice(0, 10);

/** A watch over the customer's first account group, made through the API; answers its id. */
async function watchOf(page: Page, admin: Admin, runs: 'health' | 'backup') {
  const [group] = await groupsOf(page, admin.token);
  if (!group) throw new Error('the organization has account groups');
  return { id: await createWatch(page, admin, [group], { runs }), aid: group.aid };
}

/** A health-check watch over the customer, run once through the API, until its run is done. */
async function watchRunOnce(page: Page, admin: Admin) {
  await runWatchNow(page, (await watchOf(page, admin, 'health')).id);
}

test("the customer in one look: this week's line and top actions above the fold, the timeline's counts, the watch's runs", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  await watchRunOnce(page, admin);

  // An engagement linked once; hours logged on it through the time tracker count here.
  const linked = await page.request.post(`/api/customers/${admin.organizationId}/engagements`, {
    headers: await csrf(page),
    data: { engagementId: 'ENG-1001' },
  });
  expect(linked.status(), await linked.text()).toBe(201);
  const logged = await page.request.post('/api/tracker/tasks', {
    headers: await csrf(page),
    data: {
      weekStart: today(),
      fileName: 'hours',
      tasks: [
        {
          row: 2,
          Engagement_ID: 'ENG-1001',
          task_type: 'Meeting',
          due_date: today(),
          external_reference: '',
          work_performed: `Overview ${Date.now()}`,
          hours_spent: 1.5,
        },
      ],
    },
  });
  expect(logged.status(), await logged.text()).toBe(200);

  await page.goto(`/home/customers/${admin.organizationId}`);
  await expect(page.getByRole('heading', { level: 1, name: admin.organizationName })).toBeVisible();
  const line = page.getByTestId('period-line');
  await expect(line).toContainText('Last 7 days:');
  await expect(line).toContainText('1.5 h logged');
  await expect(page.getByTestId('header-score')).toBeVisible();
  const actions = page.getByTestId('top-actions');
  await expect(actions.getByRole('listitem')).toHaveCount(3);
  for (const part of [line, actions]) {
    const box = await part.boundingBox();
    expect(box && box.y + box.height, 'above the fold at 900 px').toBeLessThanOrEqual(900);
  }

  // Waive a whole check from "needs attention": the header and the timeline say it.
  const group = page.getByTestId('attention-group').first();
  const check = (await group.locator('summary .font-medium').textContent()) ?? '';
  await group.locator('summary').click({ position: { x: 5, y: 5 } });
  await group.evaluate((element) => element.setAttribute('open', ''));
  await group.getByRole('button', { name: 'Waive the whole check' }).click();
  await page.getByRole('dialog').getByLabel('Why').fill('Known: the customer is migrating');
  await page.getByRole('dialog').getByRole('button', { name: 'Waive' }).click();
  await expect(line).toContainText('1 waiver in force');

  // The line's counts are the timeline's for the same period.
  const rows = page.getByTestId('timeline-row');
  await expect(rows.filter({ hasText: `Waived: the whole check` })).toHaveCount(1);
  await expect(rows.filter({ hasText: '1.5 h logged on ENG-1001' })).toHaveCount(1);
  const reports = await rows.locator('xpath=self::*[@data-tool="reports"]').count();
  await expect(
    line.getByTestId('period-run').filter({ hasText: reports === 1 ? '1 report' : `${reports} reports` }),
  ).toHaveCount(1);
  expect(reports).toBeGreaterThan(0);
  // The watch's health check is the watch's, not the TAM's by hand.
  const watchRow = rows.filter({ has: page.getByTestId('watch-mark') }).first();
  await expect(watchRow).toContainText('Account Watch run (asked now)');
  expect(check.length).toBeGreaterThan(0);
  await expectNoAxeViolations(page);

  // The last 30 days one click away.
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(line).toContainText('Last 30 days:');

  // At 390 px the header and "needs attention" come within the first two screens.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/home/customers/${admin.organizationId}`);
  await expect(line).toBeVisible();
  for (const part of [page.getByTestId('customer-header'), page.getByRole('heading', { name: 'Needs attention' })]) {
    const box = await part.boundingBox();
    expect(box?.y ?? Infinity, 'within the first two screens').toBeLessThan(2 * 844);
  }
  await expectNoAxeViolations(page);
});

test('My customers: three customers in three states, each coloured with its reason in words, in the side menu', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAsNewUser(page, 'TAM');
  // Three organizations: this test's copy of the sandbox's two, and Globex of a second copy.
  const [acme, globex] = (await sandboxTokens(page)).filter((token) => token.kind === 'org-admin');
  const copy = await page.request.post('/sandbox/te/organization-copies');
  expect(copy.status()).toBe(201);
  const calm = ((await copy.json()) as { tokens: Admin[] }).tokens.find(
    (token) => token.kind === 'org-admin' && token.organizationName === globex?.organizationName,
  );
  if (!acme || !globex || !calm) throw new Error('the sandbox copies hold Acme and Globex');

  // Red: Acme's health check grades F (its planted cases). Green: a backup that starts from what it finds.
  // Amber: a backup, then the customer deletes a test, then the next backup finds it gone.
  // Made one after the other (each asks the platform for its organization), then run side by side.
  const failing = await watchOf(page, acme, 'health');
  const drifting = await watchOf(page, globex, 'backup');
  const quiet = await watchOf(page, calm, 'backup');
  await Promise.all([runWatchNow(page, failing.id), runWatchNow(page, drifting.id), runWatchNow(page, quiet.id)]);
  const deleted = await page.request.post('/sandbox/te/world-changes', {
    data: { change: 'delete-test', organizationId: globex.organizationId, aid: drifting.aid },
  });
  expect(deleted.status()).toBe(200);
  await runWatchNow(page, drifting.id, 2);

  await page.goto('/home');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My Customers' }).click();
  await expect(page).toHaveURL(/\/home\/customers$/);
  const rows = page.getByTestId('portfolio-row');
  const rowOf = (admin: Admin) =>
    rows.filter({ has: page.locator(`a[href^="/home/customers/${admin.organizationId}"]`) });
  // Worst first, each in its colour with its reason in words.
  await expect(rows).toHaveCount(3);
  const expected = [
    {
      admin: acme,
      state: 'red',
      reason: /^score \d+ \(grade F\); \d+ open findings \(\d+ failing\)$/,
      label: 'Needs you now',
    },
    {
      admin: globex,
      state: 'amber',
      reason: /^1 change at the customer since the backup before$/,
      label: 'Keep an eye on',
    },
    { admin: calm, state: 'green', reason: /^nothing open$/, label: 'Fine' },
  ];
  const edges = new Set<string>();
  for (const [index, { admin, state, reason, label }] of expected.entries()) {
    const row = rowOf(admin);
    await expect(row).toHaveAttribute('data-state', state);
    await expect(rows.nth(index)).toHaveAttribute('data-state', state);
    await expect(row.getByTestId('portfolio-state')).toContainText(label);
    await expect(row.getByTestId('portfolio-reason')).toHaveText(reason);
    edges.add(await row.evaluate((element) => getComputedStyle(element).borderLeftColor));
  }
  // Three colours, one a state.
  expect(edges.size).toBe(3);
  await expectNoAxeViolations(page);

  // Filtered by state: one row each.
  for (const { admin, state } of expected) {
    await page.getByLabel('State').selectOption(state);
    await expect(rows).toHaveCount(1);
    await expect(rowOf(admin)).toBeVisible();
  }
});
