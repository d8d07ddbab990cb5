import { expect, test, type FrameLocator, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { chooseCustomer, dialog, doneReport, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';
import { createWatch, runWatchNow, type Admin } from './watch-helpers';

/** The sandbox's account group with the measured cases planted (a failing test, a noisy rule, an agent offline). */
const MEASURED_GROUP = 'Acme - EMEA Branches';
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The page scrolls only down: nothing is wider than the screen. */
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The measured checks of the report, with the figures the sandbox planted. */
async function expectMeasuredFindings(frame: FrameLocator) {
  await expect(frame.getByRole('heading', { name: /^Score: \d+\/100, grade [A-F]$/ })).toBeVisible();
  const availability = frame.locator('section#test-availability');
  await expect(availability.getByRole('heading', { name: /^Tests below their availability target/ })).toBeVisible();
  // The worst tests first, 'Payroll HTTP' among them with its failing agents and since when.
  await expect(availability.getByRole('row').filter({ hasText: 'Payroll HTTP' })).toContainText(
    /availability \d+(\.\d)?% over 7 days .*; 3 of 5 agents failing since \d{4}-\d{2}-\d{2} 09:00 UTC/,
  );
  await expect(
    frame.locator('section#agents-offline').getByRole('row').filter({ hasText: 'ea-offline-9d' }),
  ).toContainText(/offline since \d{4}-\d{2}-\d{2} \(9 days\)/);
  await expect(
    frame.locator('section#alerts-noisy').getByRole('row').filter({ hasText: 'Checkout errors' }),
  ).toHaveCount(1);
  await expect(frame.locator('section#units-runway').getByRole('row').filter({ hasText: 'Cloud units' })).toContainText(
    /projected of [\d,]+ included \(112%\): they run out on/,
  );
}

test("the health check's measured part: the report shows what the platform measured, at desktop and phone widths", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await signInAsNewUser(page, 'TAM', '/home/tools/account-health');
  const admin = await sandboxOrgAdmin(page);
  await page.getByRole('button', { name: /AHC v7/ }).click();
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await dialog(page).getByRole('list', { name: 'Account groups' }).getByLabel(MEASURED_GROUP).check();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'AHC v7 report submitted successfully' })).toBeVisible();

  const row = await doneReport(page, 'AHC v7');
  const title = `iframe[title="AHC v7: ${admin.organizationName}"]`;
  // The report's own document, for axe (the viewer's frame is sandboxed: no script, so axe cannot run in it).
  const html = await (
    await page.request.get((await row.getByRole('link', { name: /^Download .*\.html$/ }).getAttribute('href')) ?? '')
  ).text();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await row.getByRole('button', { name: 'View report' }).click();
    await expectMeasuredFindings(page.frameLocator(title));
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
  }
  const report = await page.context().newPage();
  try {
    for (const size of [DESKTOP, PHONE]) {
      await report.setViewportSize(size);
      await report.setContent(html);
      await expect(report.getByRole('heading', { name: 'AHC v7 account health check' })).toBeVisible();
      await expectNoAxeViolations(report);
    }
  } finally {
    await report.close();
  }
});

/** A health-check watch over the measured group, made through the API; answers its id. */
async function measuredWatch(page: Page, admin: Admin): Promise<{ id: string; aid: string }> {
  const group = (await groupsOf(page, admin.token)).find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
  if (!group) throw new Error(`the organization has the group ${MEASURED_GROUP}`);
  return { id: await createWatch(page, admin, [group]), aid: group.aid };
}

/** At the sandbox, between two runs: what the customer's monitoring measures moves; answers what moved, in words. */
async function worldChange(page: Page, admin: Admin, aid: string, change: 'agent-offline' | 'test-failing') {
  const changed = await page.request.post('/sandbox/te/world-changes', {
    data: { change, organizationId: admin.organizationId, aid },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  return ((await changed.json()) as { what: string }).what;
}

test("the customer page's measured trends over a watch's two runs, at desktop and phone widths", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  const customer = `/home/customers/${admin.organizationId}`;

  // Before any watch: where trends come from, and a way to make one.
  await page.goto(customer);
  const trends = page.getByTestId('measured-trends');
  await expect(trends.getByTestId('trends-empty')).toContainText('Trends come from a watch’s runs');
  await trends.getByRole('link', { name: 'make a watch' }).click();
  await expect(page).toHaveURL(/#watch-heading$/);

  const watch = await measuredWatch(page, admin);
  await runWatchNow(page, watch.id, 1);
  await page.reload();
  await expect(trends.getByTestId('trends-one-run')).toContainText('trends start with the second');
  await expect(trends.getByTestId('trend-chart')).toHaveCount(0);

  // Between the runs, one more of the group's Enterprise agents goes offline, and a test starts failing.
  expect(await worldChange(page, admin, watch.aid, 'agent-offline')).toMatch(/^enterprise agent '.+' offline$/);
  const [, failing = ''] =
    /test '(.+)' failing from/.exec(await worldChange(page, admin, watch.aid, 'test-failing')) ?? [];
  expect(failing).not.toBe('');
  await runWatchNow(page, watch.id, 2);
  await page.goto(customer);
  // The test that fell is drawn, in words and as its line, whether or not it is among the worst.
  const fell = trends.getByTestId('trend-fell-test').filter({ hasText: failing });
  const name = failing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(fell.locator('p')).toHaveText(
    new RegExp(`^${name} \\d+\\.\\d% → \\d+\\.\\d%, 3 of \\d+ agents failing \\(${MEASURED_GROUP}\\)$`),
  );
  await expect(fell.getByRole('img')).toHaveAttribute(
    'aria-label',
    new RegExp(`^${name} availability, at each run, oldest first: availability: .+%, .+%$`),
  );
  const payroll = trends.getByTestId('trend-test').filter({ hasText: 'Payroll HTTP' });
  await expect(payroll).toContainText(/^Payroll HTTP \d+\.\d%, was \d+\.\d% \(Acme - EMEA Branches\)/);
  // In the page's order: needs attention, measured trends, then the watches.
  const sections = ['Needs attention', 'Measured trends', 'Account Watch', 'Timeline'];
  const headings = await page.locator('main h2').allInnerTexts();
  expect(headings.filter((heading) => sections.includes(heading))).toEqual(sections);
  await expect(payroll.getByRole('img')).toHaveAttribute(
    'aria-label',
    /^Payroll HTTP availability, at each run, oldest first: availability: .+ \d+\.\d%, .+ \d+\.\d%$/,
  );
  await expect(trends.getByTestId('trend-rule').filter({ hasText: 'Checkout errors' })).toContainText(
    /\d+ alerts, was \d+ alerts/,
  );
  // The agent the sandbox took offline is the move: one offline at the first run (offline 9 days), two at the second.
  const agents = trends.getByTestId('trend-agents');
  await expect(agents).toContainText('Offline at the run: 2, was 1.');
  await expect(agents.getByRole('img')).toHaveAttribute('aria-label', /: offline: .+ 1, .+ 2$/);
  await expect(trends.getByTestId('trend-units')).toContainText(/projected of [\d,]+ included \(112% of it\)\./);
  await expect(trends.getByTestId('trend-unknown')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // On a phone the cards stack, one under the other, and nothing scrolls sideways.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(payroll.getByRole('img')).toBeVisible();
  const cards = ['trend-availability', 'trend-alerts', 'trend-agents', 'trend-units'];
  const boxes = await Promise.all(cards.map(async (card) => trends.getByTestId(card).boundingBox()));
  for (const [index, box] of boxes.entries()) {
    expect(box && box.x + box.width, `${cards[index]} within the screen`).toBeLessThanOrEqual(PHONE.width);
    if (index > 0)
      expect(box?.y ?? 0).toBeGreaterThan((boxes[index - 1]?.y ?? 0) + (boxes[index - 1]?.height ?? 0) - 1);
  }
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page);
});
