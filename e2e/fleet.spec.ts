import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { csrf, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';
import { createWatch, runWatchNow } from './watch-helpers';

/** The sandbox's account group with the measured cases planted (a failing test among them). */
const MEASURED_GROUP = 'Acme - EMEA Branches';
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const shortDay = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The page scrolls only down: nothing is wider than the screen. */
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Waits until the product says the job at `url` has finished, and gives its status. */
const finished = (page: Page, url: string, read: (body: unknown) => string | undefined, timeout = 120_000) =>
  expect
    .poll(async () => read(await (await page.request.get(url)).json()), { timeout, intervals: [1000] })
    .toMatch(/^(done|failed)$/);

test('My customers: each customer’s last review pack and when the next is due, and the fleet summary exported, at desktop and phone widths', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize(DESKTOP);
  const me = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  const group = (await groupsOf(page, admin.token)).find((one) => one.accountGroupName === MEASURED_GROUP);
  if (!group) throw new Error(`the organization has ${MEASURED_GROUP}`);
  const accountGroups = [{ aid: group.aid, accountGroupName: group.accountGroupName }];
  const organization = { id: admin.organizationId, name: admin.organizationName };

  // A watch with a health check, run once: it stores what the platform measured.
  const watchId = await createWatch(page, admin, accountGroups);
  await runWatchNow(page, watchId);

  await page.goto('/home/customers');
  const row = page.getByTestId('portfolio-row').filter({ hasText: admin.organizationName });
  await expect(row.getByTestId('portfolio-pack')).toHaveText('No pack yet');

  // The fleet summary downloads as a CSV with its columns and the customer's row.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export fleet summary' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^fleet-summary-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...rows] = csv.trim().split('\r\n');
  expect(header).toMatch(/^Customer,Owners,Measured at,Units used,Units projected,Units included,/);
  expect(header).toContain('Tests below 99% availability');
  expect(header).toContain('Last pack');
  const line = rows.find((one) => one.startsWith(`${admin.organizationName},`));
  expect(line, csv).toContain(me.email);
  expect(line).toContain('No pack yet');

  // Last month's pack, built through the API as the pack's page asks for it.
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const requested = await page.request.post('/api/reports', {
    headers: await csrf(page),
    data: {
      kind: 'review-pack',
      token: admin.token,
      organization,
      accountGroups,
      options: { period: { kind: 'month', from: isoDay(from), to: isoDay(to) } },
    },
  });
  expect(requested.status(), await requested.text()).toBe(202);
  const { id: reportId } = (await requested.json()) as { id: string };
  await finished(page, `/api/reports/${reportId}`, (body) => (body as { status: string }).status);
  const report = (await (await page.request.get(`/api/reports/${reportId}`)).json()) as { status: string };
  expect(report.status).toBe('done');

  const label = from.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const due = shortDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto('/home/customers');
    const pack = row.getByTestId('portfolio-pack');
    await expect(
      pack.getByRole('link', { name: `${label} review pack of ${admin.organizationName}, in My Reports` }),
    ).toHaveAttribute('href', `/home/reports?report=${reportId}`);
    await expect(pack).toContainText(`Next due ${due}`);
    await expect(page.getByRole('button', { name: 'Export fleet summary' })).toBeVisible();
    expect(await noSidewaysScroll(page), `no sideways scroll at ${viewport.width} px`).toBe(true);
    await expectNoAxeViolations(page);
  }
  await row.getByRole('link', { name: new RegExp(`^${label} review pack`) }).click();
  await expect(page).toHaveURL(new RegExp(`/home/reports\\?report=${reportId}$`));
});
