import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { PATHS } from '@ce/contract';
import { expectNoAxeViolations, signIn, WCAG } from './helpers';

// Every route, checked by axe against the WCAG 2.0, 2.1 and 2.2 A and AA rules (WCAG in helpers.ts), as a Super
// User (who sees every page). The tools' later steps and dialogs are checked in each tool's own spec.

test('the sign-in page has no accessibility violation', async ({ page }) => {
  await page.goto(PATHS.login);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expectNoAxeViolations(page);
});

const signedInPaths = Object.values(PATHS).filter((path) => path !== PATHS.login && path !== PATHS.home);

// One test per page: the pages spread over the workers, and a slow one cannot starve the others of time.
for (const path of signedInPaths) {
  test(`${path} has no accessibility violation`, async ({ page }) => {
    await signIn(page, 'superuser@demo.local');
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    // A report the user made earlier is shown in a sandboxed frame with scripts off, where axe cannot run (it
    // waits until the test times out): the page around it is checked here, the report where it is opened.
    const { violations, passes } = await new AxeBuilder({ page }).withTags(WCAG).exclude('iframe[sandbox]').analyze();
    // The page was really checked: rules applied to it and held.
    expect(passes.length).toBeGreaterThan(10);
    expect(
      violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
      ),
    ).toEqual([]);
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
