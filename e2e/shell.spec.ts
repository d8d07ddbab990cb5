import { expect, test, type Page } from './fixtures.js';
import {
  chooseCustomer,
  groupButton,
  menu,
  sandboxOrgAdmin,
  sandboxToken,
  signIn,
  signInAsNewUser,
  signInThroughForm,
} from './helpers';

const visibleLinks = (page: Page) =>
  menu(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.querySelector('[data-label]')?.textContent?.trim()));

async function expandAll(page: Page, groups: ('Reporting' | 'Tools' | 'Support')[]) {
  for (const group of groups) await groupButton(page, group).click();
}

test('Super User sees Reporting, Tools and Support with every link', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  await expect(page.getByTestId('role-badge')).toHaveText('Super User');
  await expandAll(page, ['Reporting', 'Tools', 'Support']);
  const links = await visibleLinks(page);
  for (const name of [
    'Health-Check',
    'Config Reports',
    'Alerts Report',
    'Maintenance Window',
    'Bulk Tests',
    'PCAP Support',
  ])
    expect(links).toContain(name);
});

test('TAM sees Reporting, Tools and Support', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  await expandAll(page, ['Reporting', 'Tools', 'Support']);
  const links = await visibleLinks(page);
  expect(links).toEqual(
    expect.arrayContaining(['Health-Check', 'TAM Activity Report', 'Bulk Operations', 'Diagnostic Tool']),
  );
});

test('Support sees no Reporting or Tools, and an enabled Support group', async ({ page }) => {
  await signIn(page, 'support@demo.local');
  await expect(groupButton(page, 'Reporting')).toHaveCount(0);
  await expect(groupButton(page, 'Tools')).toHaveCount(0);
  await expect(groupButton(page, 'Support')).toBeEnabled();
  await expect(page.getByTestId('role-badge')).toHaveCount(0);
  await groupButton(page, 'Support').click();
  expect(await visibleLinks(page)).toEqual(expect.arrayContaining(['PCAP Support', 'Diagnostic Tool']));
});

test('Adoption sees Reporting and Tools, and Support disabled and greyed', async ({ page }) => {
  await signIn(page, 'adoption@demo.local');
  await expandAll(page, ['Reporting', 'Tools']);
  expect(await visibleLinks(page)).toEqual(
    expect.arrayContaining(['Health-Check', 'Config Reports', 'Maintenance Window', 'Bulk Tests']),
  );
  const support = groupButton(page, 'Support');
  await expect(support).toBeDisabled();
  await expect(support).toHaveClass(/opacity-60/);
  expect(await visibleLinks(page)).not.toContain('PCAP Support');
});

test('Engineering sees only Health-Check in Reporting, and no Tools', async ({ page }) => {
  await signIn(page, 'engineering@demo.local');
  await groupButton(page, 'Reporting').click();
  const links = await visibleLinks(page);
  expect(links).toContain('Health-Check');
  expect(links).not.toContain('Alerts Report');
  await expect(groupButton(page, 'Tools')).toHaveCount(0);
});

test('User sees the dashboard and settings only, with Support greyed', async ({ page }) => {
  await signIn(page, 'user@demo.local');
  await expect(groupButton(page, 'Reporting')).toHaveCount(0);
  await expect(groupButton(page, 'Tools')).toHaveCount(0);
  await expect(groupButton(page, 'Support')).toBeDisabled();
  expect(await visibleLinks(page)).toEqual(['Dashboard', 'My Reports', 'Settings']);
});

test('Enter and Space expand and collapse a group', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  const reporting = groupButton(page, 'Reporting');
  await reporting.focus();
  await page.keyboard.press('Enter');
  await expect(reporting).toHaveAttribute('aria-expanded', 'true');
  await expect(menu(page).getByRole('link', { name: 'Health-Check' })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(reporting).toHaveAttribute('aria-expanded', 'false');
  await expect(menu(page).getByRole('link', { name: 'Health-Check' })).toHaveCount(0);
  await page.keyboard.press('Space');
  await expect(reporting).toHaveAttribute('aria-expanded', 'true');
});

test('the menu collapses to w-16 and opens to w-64', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  const nav = menu(page);
  await expect(nav).toHaveClass(/\bw-64\b/);
  expect((await nav.boundingBox())?.width).toBe(256);
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(nav).toHaveClass(/\bw-16\b/);
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(64);
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(nav).toHaveClass(/\bw-64\b/);
});

test('below 768px the menu starts collapsed', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 900 });
  await signIn(page, 'tam@demo.local');
  await expect(menu(page)).toHaveClass(/\bw-16\b/);
});

test("at a phone's width the navbar stays on one line: the person's name gives way to the customer's, whole", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'superuser@demo.local');
  const admin = await sandboxToken(page, 'org-admin');
  await chooseCustomer(page, admin);
  const header = page.locator('header').first();
  // The logo names the product; the chosen customer takes its room.
  await expect(page.getByTestId('product-name')).not.toBeInViewport();
  const parts = [
    page.getByRole('button', { name: /menu$/ }),
    page.getByTestId('customer-switcher-name'),
    page.getByTestId('role-badge'),
    page.getByRole('button', { name: 'Logout' }),
  ];
  const headerBox = await header.boundingBox();
  if (!headerBox) throw new Error('the navbar is shown');
  expect(headerBox.height).toBe(56);
  for (const part of parts) {
    const box = await part.boundingBox();
    if (!box) throw new Error('every part of the navbar is shown');
    // Inside the bar, one line high, centred on it, and nothing past the screen's edge.
    expect(box.y).toBeGreaterThanOrEqual(headerBox.y);
    expect(box.y + box.height).toBeLessThanOrEqual(headerBox.y + headerBox.height);
    expect(box.height).toBeLessThanOrEqual(36);
    expect(Math.abs(box.y + box.height / 2 - (headerBox.y + headerBox.height / 2))).toBeLessThanOrEqual(2);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // The customer's name whole (it was cut to "Acme …"); the signed-in person's own name is what gave way.
  const shown = await page.getByTestId('customer-switcher-name').evaluate((element) => ({
    whole: element.scrollWidth <= element.clientWidth,
    full: element.textContent,
  }));
  expect(shown).toEqual({ whole: true, full: admin.organizationName });
  await expect(page.getByTestId('welcome')).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // At a desktop's width, the welcome word is back.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByText('Welcome,', { exact: false })).toBeVisible();
  await expect(page.getByTestId('product-name')).toBeInViewport();
});

test('menu links go to their routes', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  await groupButton(page, 'Reporting').click();
  await menu(page).getByRole('link', { name: 'Alerts Report' }).click();
  await expect(page).toHaveURL(/\/home\/tools\/alerts-report$/);
  await menu(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/home\/settings$/);
});

test('logout ends the session, clears storage, says so for 3 s and goes to /login', async ({ page }) => {
  // A user of its own: signing out ends every session of the user, which other tests' users must keep.
  await signInAsNewUser(page, 'ProServ');
  await expect(page.getByTestId('role-badge')).toHaveText('ProServ');
  await page.evaluate(() => {
    localStorage.setItem('bulk-tests.tokens', '["abc"]');
    sessionStorage.setItem('draft', 'x');
  });
  await page.getByRole('button', { name: 'Logout' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Logged out from all applications' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-toast-type', 'success');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  await expect(toast).toBeHidden({ timeout: 4000 });
  await page.goto('/home/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('recent-token chips end with the session: when it expires, and for the next user on this browser', async ({
  page,
  browser,
}) => {
  const { token } = await sandboxOrgAdmin(page);
  const chips = page.getByRole('group', { name: 'Recent tokens' }).getByRole('button');
  const useToken = async () => {
    await page.goto('/home/tools/bulk-tests');
    await page.getByLabel('OAuth Token').fill(token);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Account groups' })).toBeVisible();
    await page.reload();
    await expect(chips).toHaveText([`…${token.slice(-8)}`]);
  };
  const kept = () => page.evaluate(() => JSON.stringify(localStorage));

  // A user of its own: signing out ends every session of the user, which other tests' users must keep.
  const user = await signInAsNewUser(page, 'TAM');
  await useToken();

  // The session ends on the server (here: signed out everywhere from another browser).
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, user.email, user.password);
  await other.getByRole('button', { name: 'Logout' }).click();
  await expect(other).toHaveURL(/\/login$/);
  await elsewhere.close();
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  expect(await kept()).not.toContain(token);
  // Signing in again leads back to the tool, now without the chip.
  await page.getByLabel('Username').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/home\/tools\/bulk-tests$/);
  await expect(page.getByLabel('OAuth Token')).toBeVisible();
  await expect(chips).toHaveCount(0);

  // The session cookie expires in this browser, and someone else signs in on it.
  await useToken();
  await page.context().clearCookies();
  await signInThroughForm(page, 'proserv@demo.local');
  await page.goto('/home/tools/bulk-tests');
  await expect(page.getByLabel('OAuth Token')).toBeVisible();
  await expect(chips).toHaveCount(0);
  expect(await kept()).not.toContain(token);
});

test('the dashboard tiles and panels show numbers', async ({ page }) => {
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/dashboard/metrics'));
  await signIn(page, 'tam@demo.local');
  const tiles = page.getByTestId('metric-tile');
  await expect(tiles).toHaveCount(10);
  // Each tile shows the number the server counts, as the server counts it (other tests count too, at the same
  // time: the numbers are those of the answer the page showed). The provisioned tests start at the baseline.
  const metrics = (await (await answered).json()) as Record<string, number>;
  expect(metrics.provisionedTests).toBeGreaterThanOrEqual(8589);
  const shown: [string, number | undefined][] = [
    ['Health Check', metrics.healthCheck],
    ['CA & EA Config', metrics.caEaConfig],
    ['EPA Config', metrics.epaConfig],
    ['Alerts Report', metrics.alertsReport],
    ['Provisioned Dashboards', metrics.provisionedDashboards],
    ['Provisioned Tests', metrics.provisionedTests],
  ];
  for (const [label, value] of shown) {
    expect(value, label).toEqual(expect.any(Number));
    await expect(tiles.filter({ hasText: label }).first()).toContainText(
      new RegExp(`^${label}${(value ?? -1).toLocaleString('en-US')}$`),
    );
  }
  // The spec's release notes, in full, in a panel that does not scroll on its own.
  const notes = page.getByRole('region', { name: 'Release Notes' });
  await expect(notes.getByRole('heading')).toHaveText(['Release Notes', 'Q2 2025', 'Q1 2025']);
  await expect(notes.getByRole('listitem')).toHaveText([
    'Better log handling',
    'Time Tracker enabled for PS',
    'DashVote API dashboard voting',
    'AS-Built Reports renamed Configuration Reports',
    'PS-Closure Documents tool added',
    'TAM Activity Report introduced',
    'Time Tracker for TAMs',
  ]);
});

test('when the metrics fail to load, loading stops, zeros remain, a banner says so and Retry loads them', async ({
  page,
}) => {
  await page.route('**/api/dashboard/metrics', (route) => route.fulfill({ status: 500, body: '{}' }));
  await signIn(page, 'tam@demo.local');
  const provisioned = page.getByTestId('metric-tile').filter({ hasText: 'Provisioned Tests' });
  await expect(provisioned).toContainText(/^Provisioned Tests0$/);
  await expect(provisioned.locator('[aria-busy="false"]')).toHaveCount(1);
  const banner = page.getByRole('status').filter({ hasText: 'The usage figures could not be loaded' });
  await expect(banner).toBeVisible();
  await page.unroute('**/api/dashboard/metrics');
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/dashboard/metrics'));
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(banner).toBeHidden();
  const { provisionedTests } = (await (await answered).json()) as { provisionedTests: number };
  expect(provisionedTests).toBeGreaterThanOrEqual(8589);
  await expect(provisioned).toContainText(provisionedTests.toLocaleString('en-US'));
});

test('the collapsed menu shows real icons, distinct, named by a tooltip on hover and focus', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  const settings = menu(page).getByRole('link', { name: 'Settings' });
  const support = groupButton(page, 'Support');
  const shape = (locator: typeof settings) => locator.locator('svg').first().innerHTML();
  expect(await shape(settings)).not.toBe(await shape(support));
  await settings.hover();
  const tip = settings.getByText('Settings', { exact: true }).first();
  await expect(tip).toBeVisible();
  // Beside the 16-wide menu, on top of the page and not clipped: what the eye sees at its middle is it.
  const hit = await tip.evaluate((element) => {
    const box = element.getBoundingClientRect();
    element.style.pointerEvents = 'auto';
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    element.style.pointerEvents = '';
    return top?.textContent;
  });
  expect(hit).toBe('Settings');
  await page.mouse.move(600, 400);
  await support.focus();
  await expect(support.getByText('Support', { exact: true }).first()).toBeVisible();
});

test('the group holding the current page opens by itself and marks the page as current', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/alerts-report');
  await expect(groupButton(page, 'Reporting')).toHaveAttribute('aria-expanded', 'true');
  await expect(menu(page).getByRole('link', { name: /Alerts Report/ })).toHaveAttribute('aria-current', 'page');
  await expect(groupButton(page, 'Tools')).toHaveAttribute('aria-expanded', 'false');
  // Closed by the user, it stays closed.
  await groupButton(page, 'Reporting').click();
  await expect(groupButton(page, 'Reporting')).toHaveAttribute('aria-expanded', 'false');
});

test('a toast never covers the Logout button', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/alerts-report');
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await page.getByRole('dialog').getByLabel('OAuth token').fill('not-a-real-token-at-all-123');
  await page.getByRole('dialog').getByRole('button', { name: 'Next' }).click();
  const alert = page.getByRole('alert').first();
  await expect(alert).toBeVisible();
  await page.keyboard.press('Escape');
  const [toastBox, logoutBox] = await Promise.all([
    alert.boundingBox(),
    page.getByRole('button', { name: 'Logout' }).boundingBox(),
  ]);
  if (!toastBox || !logoutBox) throw new Error('both are on screen');
  const overlaps =
    toastBox.x < logoutBox.x + logoutBox.width &&
    logoutBox.x < toastBox.x + toastBox.width &&
    toastBox.y < logoutBox.y + logoutBox.height &&
    logoutBox.y < toastBox.y + toastBox.height;
  expect(overlaps).toBe(false);
});

test('when the signed-in user cannot be read, the spec message shows with a retry, not the sign-in page', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  // The page came without the user (its server could not read the session), and asking for it fails too.
  await page.route('**/home/**', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const body = (await response.text()).replace(/"user":\{[^}]*\},/, '');
    expect(body).toContain('"appInfo"');
    expect(body).not.toContain('"user"');
    return route.fulfill({ response, body });
  });
  await page.route('**/api/session', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'internal', message: 'Internal server error', requestId: 'e2e' } }),
        })
      : route.continue(),
  );
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'Error getting user information' }).first()).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
  await page.unroute('**/api/session');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('role-badge')).toHaveText('TAM');
  await page.unroute('**/home/**');
});
