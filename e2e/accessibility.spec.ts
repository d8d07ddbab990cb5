import { expect, test, type Page } from './fixtures.js';
import { PATHS } from '@ce/contract';
import { axe, expectNoAxeViolations, signIn } from './helpers';

// Every route, checked by axe against the WCAG 2.0, 2.1 and 2.2 A and AA rules (WCAG in helpers.ts), as a Super
// User (who sees every page). The tools' later steps and dialogs are checked in each tool's own spec.

test('the sign-in page has no accessibility violation', async ({ page }) => {
  await page.goto(PATHS.login);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expectNoAxeViolations(page);
});

/** Every page a Super User opens: the route table, each section of Settings, and a customer's page. */
const signedInPaths = [
  ...Object.values(PATHS).filter((path) => path !== PATHS.login && path !== PATHS.home),
  ...['profile', 'password', 'sessions', 'api-tokens', 'users', 'all-api-tokens', 'audit-log'].map(
    (section) => `${PATHS.settings}/${section}`,
  ),
  `${PATHS.customers}/1234`,
];

const PHONE = { width: 390, height: 844 };

/** Axe's verdict on the page around any report frame (a sandboxed frame with scripts off, where axe cannot run). */
async function violationsOf(page: Page) {
  const { violations, passes } = await axe(page, { exclude: 'iframe[sandbox]' });
  // The page was really checked: rules applied to it and held.
  expect(passes.length).toBeGreaterThan(10);
  return violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
  );
}

/** How the page sits: the document's and the page area's widths, and its narrowest part. */
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

// One test per page: the pages spread over the workers, and a slow one cannot starve the others of time. Each is
// checked at a desktop's width, then at a phone's (390 x 844): no sideways scroll, the page's content at least
// 280 px wide, and axe again.
for (const path of signedInPaths) {
  test(`${path} has no accessibility violation, at a desktop's width and a phone's, where it fits`, async ({
    page,
  }) => {
    await signIn(page, 'superuser@demo.local', undefined, path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    expect(await violationsOf(page)).toEqual([]);

    await page.setViewportSize(PHONE);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu).toHaveAttribute('data-state', 'collapsed');
    // The menu narrows to its icons (a short transition) before the page is measured.
    await expect.poll(async () => (await menu.boundingBox())?.width).toBe(64);
    const layout = await layoutOf(page);
    expect(layout.documentWidth).toBeLessThanOrEqual(PHONE.width);
    expect(layout.mainOverflow).toBeLessThanOrEqual(0);
    expect(layout.contentWidth).toBeGreaterThanOrEqual(280);
    expect(layout.narrowest).toBeGreaterThanOrEqual(280);
    expect(await violationsOf(page)).toEqual([]);
  });
}

test("the dashboard has no accessibility violation at a phone's size, where its release notes are at their longest", async ({
  page,
}) => {
  // Whether a box of fixed height overflows depends on the width and on the machine's fonts: at this
  // size any such box would, so a scroll box out of the keyboard's reach is found on every machine.
  await page.setViewportSize({ width: 360, height: 640 });
  await signIn(page, 'tam@demo.local');
  const notes = page.getByRole('region', { name: 'Release Notes' });
  await expect(notes).toContainText('Time Tracker for TAMs');
  await expectNoAxeViolations(page);
});
