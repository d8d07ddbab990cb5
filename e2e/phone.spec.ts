import { expect, test, type Locator } from './fixtures.js';
import { csrf, expectNoAxeViolations, menu, signIn, signInAsNewUser } from './helpers';

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
