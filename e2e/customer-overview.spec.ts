import { expect, test, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { chooseCustomer, csrf, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';

/** Today, as the time tracker's rows date their work. */
const today = () => new Date().toISOString().slice(0, 10);

/** A health-check watch over the customer, run once through the API, until its run is done. */
async function watchRunOnce(page: Page, admin: Awaited<ReturnType<typeof sandboxOrgAdmin>>) {
  const [group] = await groupsOf(page, admin.token);
  if (!group) throw new Error('the organization has account groups');
  const created = await page.request.post('/api/watches', {
    headers: await csrf(page),
    data: {
      token: admin.token,
      organization: { id: admin.organizationId, name: admin.organizationName },
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@customer.example', days: 30 },
      accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
      runs: 'health',
      schedule: { cadence: 'weekly', weekday: 1, time: '07:00', timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/watches/${id}/runs`, { headers: await csrf(page) })).status()).toBe(202);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/watches/${id}/runs`)).json()) as { runs: { status: string }[] }).runs[0]
          ?.status,
      { timeout: 60_000 },
    )
    .toBe('done');
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
  await expect(line.getByTestId('period-run').filter({ hasText: `${reports} reports` })).toHaveCount(1);
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

test('My customers: each row coloured with its reason in words, filtered by state, in the side menu', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await watchRunOnce(page, admin);
  await page.goto('/home');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My Customers' }).click();
  await expect(page).toHaveURL(/\/home\/customers$/);
  const row = page.getByTestId('portfolio-row').filter({ hasText: admin.organizationName });
  const state = (await row.getAttribute('data-state')) ?? '';
  expect(['red', 'amber', 'green']).toContain(state);
  await expect(row.getByTestId('portfolio-reason')).toContainText(/open finding|score|nothing open/);
  await page.getByLabel('State').selectOption(state === 'green' ? 'red' : 'green');
  await expect(page.getByTestId('portfolio-row')).toHaveCount(0);
  await page.getByLabel('State').selectOption(state);
  await expect(row).toBeVisible();
  await expectNoAxeViolations(page);
});
