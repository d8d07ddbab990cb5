import { expect, test, type Locator, type Page } from './fixtures.js';
import {
  chooseCustomer,
  csrf,
  dialog,
  expectNoAxeViolations,
  fillReportWizard,
  menu,
  sandboxOrgAdmin,
  signIn,
  signInAsNewUser,
} from './helpers';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

// Every page at this width (no sideways scroll, the page at least 280 px wide, axe) is in accessibility.spec.ts.

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

  // Tab goes round the open menu and its button, never to the page under it, both ways.
  await toggle.click();
  await expect(nav).toHaveAttribute('data-state', 'open');
  const focusInMenu = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      const button = document.querySelector('[aria-controls="side-menu"]');
      return active === button || Boolean(document.getElementById('side-menu')?.contains(active));
    });
  const stops = await nav.locator('a[href], button').count();
  for (const key of ['Tab', 'Shift+Tab'])
    for (let press = 0; press <= stops + 1; press++) {
      await page.keyboard.press(key);
      expect(await focusInMenu(), `${key} x${press + 1}`).toBe(true);
    }
  await page.keyboard.press('Escape');
  await expect(nav).toHaveAttribute('data-state', 'collapsed');

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

test("Settings on a phone: the profile's email wraps inside its card, never past it", async ({ page }) => {
  // A user whose email is longer than a phone's card is wide.
  const { email } = await signInAsNewUser(page, 'TAM', '/home/settings/profile');
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile).toContainText(email);
  const fits = await profile.evaluate((card) => {
    const list = card.querySelector('dl');
    const edge = card.getBoundingClientRect().right;
    return Boolean(list) && [...(list?.children ?? [])].every((cell) => cell.getBoundingClientRect().right <= edge);
  });
  expect(fits, 'every line of the profile inside its card').toBe(true);
});

/**
 * The controls in view smaller than 24 x 24 px (WCAG 2.5.8): a link inside a sentence is exempt, and so are the
 * headings a stacked table keeps for screen readers only (clipped out of sight, out of a finger's reach).
 */
const smallTargets = (page: Page, within = 'body') =>
  page.locator(within).evaluate((root) =>
    [...root.querySelectorAll('button, input:not([type="hidden"]), select, textarea, a[href], summary')].flatMap(
      (element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        const sentence = element.tagName === 'A' && style.display === 'inline';
        if (box.width === 0 || box.height === 0 || sentence || element.closest('.stacked-table thead')) return [];
        return box.width < 24 || box.height < 24
          ? [
              `${element.tagName} "${element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''}" ${Math.round(box.width)}x${Math.round(box.height)}`,
            ]
          : [];
      },
    ),
  );

test("a phone: 24 px targets, a toast off the title, the customer's name whole, the report full screen, compact files", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsNewUser(page, 'TAM', '/home/tools/account-health');
  const admin = await sandboxOrgAdmin(page);
  await page.getByRole('button', { name: /AHC v7/ }).click();
  await fillReportWizard(page, admin, 1);
  // The account groups' checkboxes, and every other control of the wizard, are finger-sized.
  await expect(dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox').first()).toBeChecked();
  expect(await smallTargets(page, '[role="dialog"]')).toEqual([]);
  const box = await dialog(page)
    .getByRole('list', { name: 'Account groups' })
    .getByRole('checkbox')
    .first()
    .boundingBox();
  expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(24);
  await dialog(page).getByRole('button', { name: 'Submit' }).click();

  // The toast says it where the page's title stays in sight.
  const submitted = page.getByRole('status').filter({ hasText: 'AHC v7 report submitted successfully' });
  await expect(submitted).toBeVisible();
  const title = await page.getByRole('heading', { level: 1 }).boundingBox();
  const told = await submitted.boundingBox();
  if (!title || !told) throw new Error('the title and the toast are shown');
  expect(told.y >= title.y + title.height || told.y + told.height <= title.y, 'the toast off the title').toBe(true);
  expect(told.x >= 0 && told.x + told.width <= PHONE.width).toBe(true);

  // The header names the customer whole (it was "Acme …").
  await chooseCustomer(page, admin);
  const name = page.getByTestId('customer-switcher-name');
  await expect(name).toHaveText(admin.organizationName);
  expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await expect(name).toBeInViewport({ ratio: 1 });

  // My Reports: the report's files in one compact line, each named whole for assistive technology.
  await page.goto('/home/reports');
  const row = page.getByTestId('report-row').filter({ hasText: 'AHC v7' }).first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const files = row.getByRole('link', { name: /^Download / });
  await expect(files).toHaveCount(4);
  for (const file of await files.all())
    expect(await file.evaluate((element) => (element as HTMLElement).innerText)).toMatch(/^(HTML|PDF|XLSX|JSON)$/);
  // Two lines of files at most, and the whole report well within half a screen (it filled one).
  const tops = new Set<number>();
  for (const file of await files.all()) tops.add(Math.round((await file.boundingBox())?.y ?? -1));
  expect(tops.size, 'the files in two lines at most').toBeLessThanOrEqual(2);
  expect((await row.boundingBox())?.height ?? Infinity).toBeLessThan(PHONE.height / 2);
  expect(await smallTargets(page, 'main')).toEqual([]);
  await expectNoAxeViolations(page);

  // The report opens full screen: the frame as wide as the phone, down to its bottom edge.
  await row.getByRole('button', { name: 'View report' }).click();
  const viewer = dialog(page);
  const panel = await viewer.boundingBox();
  expect(panel && [panel.x, panel.y, panel.width]).toEqual([0, 0, PHONE.width]);
  expect(panel?.height ?? 0, 'down to the bottom edge').toBeGreaterThanOrEqual(PHONE.height - 8);
  const frame = await viewer.locator('iframe').boundingBox();
  expect(frame?.width).toBe(PHONE.width);
  expect(frame && panel && frame.y + frame.height).toBe(panel && panel.y + panel.height);
  expect(frame?.height ?? 0).toBeGreaterThan(PHONE.height * 0.8);
  await expect(
    page
      .frameLocator(`iframe[title="AHC v7: ${admin.organizationName}"]`)
      .getByRole('heading', { name: 'AHC v7 account health check' }),
  ).toBeVisible();
  expect(await smallTargets(page, '[role="dialog"]')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
});
