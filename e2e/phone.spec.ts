import { expect, test, type Locator, type Page } from '@playwright/test';
import { csrf, expectNoAxeViolations, menu, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/** Every page a Super User opens, with its heading. */
const PAGES: [string, string][] = [
  ['/home/dashboard', 'Dashboard'],
  ['/home/reports', 'My Reports'],
  ['/home/tools/account-health', 'Account Health Check'],
  ['/home/tools/config-report', 'Configuration Reports'],
  ['/home/tools/alerts-report', 'Alerts Configuration Report'],
  ['/home/tools/ps-closure-documents', 'PS Closure Documents'],
  ['/home/tools/tam-weekly-report', 'TAM Activity Report'],
  ['/home/tools/tam-maintenance-window', 'Maintenance Window Report'],
  ['/home/tools/bulk-tests', 'Bulk Test Creator'],
  ['/home/tools/bulk-operations', 'Bulk Operations'],
  ['/home/tools/alerts-migration', 'Alerts Migration'],
  ['/home/tools/backup-restore', 'Backup & Restore'],
  ['/home/tools/dashboards', 'Dashboards'],
  ['/home/tools/time-tracking', 'Time Tracking'],
  ['/home/api-tools', 'API Tools'],
  ['/home/support', 'PCAP Support'],
  ['/home/diagnostic-tool', 'Diagnostic Tool'],
  ['/home/settings', 'Settings'],
  ['/home/settings/profile', 'Settings'],
  ['/home/settings/api-tokens', 'Settings'],
  ['/home/settings/users', 'Settings'],
  ['/home/settings/all-api-tokens', 'Settings'],
  ['/home/settings/audit-log', 'Settings'],
  ['/home/customers', 'Customers'],
  ['/home/customers/1234', 'Organization 1234'],
];

/** How the page sits at this width: the document's and the page area's widths, and its narrowest part. */
function layoutOf(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) throw new Error('the page has its main area');
    const style = getComputedStyle(main);
    const widths = Array.from(main.children)
      .map((child) => child.getBoundingClientRect().width)
      .filter((width) => width > 0);
    return {
      documentWidth: document.documentElement.scrollWidth,
      mainOverflow: main.scrollWidth - main.clientWidth,
      contentWidth: main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      narrowest: Math.min(...widths),
    };
  });
}

for (const [path, heading] of PAGES) {
  test(`${path} fits a phone: no sideways scroll, the page at least 280 px wide, no accessibility violation`, async ({
    page,
  }) => {
    await signIn(page, 'superuser@demo.local');
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    const layout = await layoutOf(page);
    expect(layout.documentWidth).toBeLessThanOrEqual(PHONE.width);
    expect(layout.mainOverflow).toBeLessThanOrEqual(0);
    expect(layout.contentWidth).toBeGreaterThanOrEqual(280);
    expect(layout.narrowest).toBeGreaterThanOrEqual(280);
    await expectNoAxeViolations(page);
  });
}

test('the menu slides over the page and closes on navigation, on Escape and on a tap outside it', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  const nav = menu(page);
  const toggle = page.getByRole('button', { name: /menu$/ });
  const mainWidth = async () => (await page.locator('main').boundingBox())?.width;
  const before = await mainWidth();
  await expect(nav).toHaveAttribute('data-state', 'collapsed');

  await toggle.click();
  await expect(nav).toHaveAttribute('data-state', 'open');
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(256);
  // Over the page: the page keeps its width.
  expect(await mainWidth()).toBe(before);
  await expectNoAxeViolations(page);
  await nav.getByRole('link', { name: 'My Reports' }).click();
  await expect(page).toHaveURL(/\/home\/reports$/);
  await expect(nav).toHaveAttribute('data-state', 'collapsed');

  await toggle.click();
  await expect(nav).toHaveAttribute('data-state', 'open');
  await page.keyboard.press('Escape');
  await expect(nav).toHaveAttribute('data-state', 'collapsed');
  await expect(toggle).toBeFocused();

  await toggle.click();
  await expect(nav).toHaveAttribute('data-state', 'open');
  await page.mouse.click(350, 600);
  await expect(nav).toHaveAttribute('data-state', 'collapsed');
  await expect(page).toHaveURL(/\/home\/reports$/);
});

test('every navbar action is in reach at a phone width, "Tell the team" too', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  for (const name of [/menu$/, /^Tell the team$/, /^Logout$/]) {
    const action = page.getByRole('button', { name });
    await expect(action).toBeInViewport();
    const box = await action.boundingBox();
    expect((box?.x ?? PHONE.width) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  }
  await page.getByRole('button', { name: 'Tell the team' }).click();
  await expect(page.getByRole('dialog', { name: 'Feedback for the CE Toolkit team' })).toBeVisible();
});

test('a table is stacked rows on a phone: every cell named by its column, nothing cut off', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  const name = `Phone ${Date.now().toString(36)}`;
  const made = await page.request.post('/api/account/api-tokens', {
    data: { name, expiresInDays: 7, capabilities: ['customerToken'] },
    headers: await csrf(page),
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto('/home/settings/api-tokens');
  const row = page.getByRole('table', { name: 'Your API tokens' }).getByRole('row').filter({ hasText: name });
  // What was cut off at the right before: the expiry, the status and Revoke, each in view and named.
  const within = async (locator: Locator) => {
    await locator.scrollIntoViewIfNeeded();
    const box = await locator.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'inside the screen, left to right').toBe(true);
  };
  for (const column of ['Expires', 'Status']) {
    const cell = row.locator(`td[data-label="${column}"]`);
    await within(cell);
    expect(await cell.evaluate((element) => getComputedStyle(element, '::before').content)).toBe(`"${column}"`);
  }
  await within(row.getByRole('button', { name: `Revoke ${name}` }));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});
