import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test, type Page } from './fixtures.js';
import { BULK_MESSAGES, REVIEW_MESSAGES } from '@ce/contract';
import { groupsOf } from './bulk-helpers';
import { chooseCustomer, csrf, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';

/** The sandbox's account group with the measured cases planted (a failing test, a noisy rule, an agent offline). */
const MEASURED_GROUP = 'Acme - EMEA Branches';
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

type Admin = Awaited<ReturnType<typeof sandboxOrgAdmin>>;

/** A health-check watch over the measured group, run once now through the API: its measurements are stored. */
async function watchRunOnce(page: Page, admin: Admin) {
  const group = (await groupsOf(page, admin.token)).find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
  if (!group) throw new Error(`the organization has the group ${MEASURED_GROUP}`);
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
      async () => {
        const { runs } = (await (await page.request.get(`/api/watches/${id}/runs`)).json()) as {
          runs: { status: string }[];
        };
        return runs[0]?.status ?? 'waiting';
      },
      { timeout: 90_000 },
    )
    .toBe('done');
}

/** How the page sits at its width: nothing scrolls sideways, and every control is a target of 24 px at least. */
async function expectFits(page: Page) {
  const layout = await page.evaluate(() => ({
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    small: Array.from(document.querySelectorAll('main button, main a, main input:not([type=checkbox]), main select'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 24 || box.width < 24))
      .map(({ element, box }) => `${element.outerHTML.slice(0, 80)} ${box.width}x${box.height}`),
  }));
  expect(layout.sideways).toBeLessThanOrEqual(0);
  expect(layout.small).toEqual([]);
}

/** A downloaded file of the pack, by the link's name. */
async function download(page: Page, name: RegExp) {
  const link = page.getByTestId('pack-files').getByRole('link', { name });
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), content: await readFile((await file.path()) ?? '') };
}

test("a customer's review pack: previewed from a watch's run, the narrative kept, built and downloaded, at desktop and phone widths", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  await watchRunOnce(page, admin);

  // From the customer's page to its pack.
  await page.goto(`/home/customers/${admin.organizationId}`);
  await page.getByRole('link', { name: 'Review pack' }).click();
  await expect(page).toHaveURL(new RegExp(`/home/customers/${admin.organizationId}/review$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Review pack: ${admin.organizationName}`);

  // The last full month by default; the run was made this month, so this month so far is chosen.
  const month = page.getByLabel('Month');
  await expect(month.locator('option:checked')).not.toContainText('so far');
  await month.selectOption(new Date().toISOString().slice(0, 7));
  await expect(page.getByTestId('cut-off')).toContainText(/^Figures up to \d+ \w+ \d{4}, \d{2}:\d{2} UTC/);

  // The preview shows what the watch's run measured: the failing test proposed first among the key tests, the
  // agent offline, every slide with its source and cut-off.
  const keyTests = page.getByRole('list', { name: 'Key tests' });
  await expect(keyTests.getByRole('checkbox', { name: /Payroll HTTP/ })).toBeChecked();
  const slides = page.getByTestId('slide');
  await expect(slides.first()).toBeVisible();
  await expect(slides.filter({ hasText: 'Payroll HTTP' }).first()).toBeVisible();
  await expect(slides.filter({ hasText: 'ea-offline-9d' }).first()).toBeVisible();
  for (const footer of await page.getByTestId('slide-footer').allInnerTexts())
    expect(footer).toMatch(/^Source: .+\. Figures up to .+\.$/);
  await expect(
    page.getByRole('status').filter({ hasText: /^Read from the platform when the pack is built: .*outages/ }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The narrative, edited in place and kept after a reload.
  await page.getByRole('button', { name: 'Add a goal' }).click();
  await page.getByLabel('Goal 1', { exact: true }).fill('Clear alerts within an hour');
  await page.getByRole('button', { name: 'Add a next step' }).click();
  await page.getByLabel('Next step 1', { exact: true }).fill('Retire the noisy Checkout errors rule');
  await page.getByLabel('Owner of step 1').fill('Dana Admin');
  await page.getByLabel('Due date of step 1').fill('2027-01-15');
  await page.getByRole('button', { name: 'Save the narrative' }).click();
  await expect(page.getByTestId('narrative-said')).toHaveText('Saved: the next pack for this customer starts from it.');
  await page.reload();
  await expect(page.getByLabel('Goal 1', { exact: true })).toHaveValue('Clear alerts within an hour');
  await expect(page.getByLabel('Owner of step 1')).toHaveValue('Dana Admin');
  await expect(page.getByTestId('narrative-said')).toContainText('Kept since');
  await page.getByLabel('Month').selectOption(new Date().toISOString().slice(0, 7));
  await expect(keyTests.getByRole('checkbox', { name: /Payroll HTTP/ })).toBeChecked();

  // Built with the customer chosen in the navbar: its progress, then the deck, its PDF and the figures.
  await expect(page.getByTestId('customer-token')).toContainText(admin.organizationName);
  await page.getByRole('button', { name: 'Build the pack' }).click();
  await expect(page.getByTestId('pack-status')).toHaveText('done', { timeout: 120_000 });
  const deck = await download(page, /\.pptx$/);
  expect(deck.content.subarray(0, 2).toString()).toBe('PK');
  const parts = unzipSync(new Uint8Array(deck.content));
  const slideXml = Object.entries(parts)
    .filter(([name]) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .map(([, data]) => strFromU8(data))
    .join('\n');
  const firstTitle = (await slides.first().getByRole('heading').innerText()).trim();
  expect(slideXml).toContain(firstTitle.replace(/&/g, '&amp;'));
  expect(slideXml).toContain('Clear alerts within an hour');
  const pdf = await download(page, /\.pdf$/);
  expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
  // The pack's figures are the preview's: its units used, as the preview's slide says them.
  const figures = JSON.parse((await download(page, /\.json$/)).content.toString('utf8')) as {
    units: { content: { used: number } };
  };
  await expect(slides.filter({ hasText: 'Units used and projected' })).toContainText(
    `Used: ${figures.units.content.used.toLocaleString('en-US')}`,
  );
  await expect(page.getByRole('link', { name: 'Open in My Reports' })).toBeVisible();
  await expectFits(page);
  await expectNoAxeViolations(page);

  // On a phone: the same page, nothing sideways, every target large enough, axe again.
  await page.setViewportSize(PHONE);
  await expect(slides.first()).toBeVisible();
  await expectFits(page);
  await expectNoAxeViolations(page);

  // The pack is kept in My Reports with the rest.
  await page.getByRole('link', { name: 'Open in My Reports' }).click();
  const row = page.getByTestId('report-row').filter({ hasText: 'Review pack' }).first();
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row.getByRole('link', { name: /^Download .*\.pptx$/ })).toBeVisible();
});

test('the review pack where a new user tripped: days said beside their fields, a revoked token once, the keyboard, an unknown id', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  await chooseCustomer(page, admin);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`/home/customers/${admin.organizationId}/review`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Review pack: ${admin.organizationName}`);
    await expect(page.getByTestId('slide').first()).toBeVisible();

    // Dates whose last day comes first: said beside the last day as soon as it is wrong, and by the preview.
    await page.getByRole('button', { name: 'Dates' }).click();
    const first = page.getByLabel('First day');
    const last = page.getByLabel('Last day');
    await expect(last).not.toHaveAttribute('aria-invalid', 'true');
    await first.fill('2026-11-20');
    await last.fill('2026-11-10');
    await expect(last).toHaveAccessibleDescription(REVIEW_MESSAGES.periodOrder);
    await expect(page.getByTestId('preview-waits')).toContainText(REVIEW_MESSAGES.periodOrder);
    await first.fill('');
    await first.blur();
    await expect(first).toHaveAccessibleDescription(REVIEW_MESSAGES.firstDayMissing);
    await expect(page.getByTestId('preview-waits')).toContainText(REVIEW_MESSAGES.firstDayMissing);
    await expectFits(page);
    await expectNoAxeViolations(page);

    // "Add a goal" from the keyboard: the focus goes into the new row, so Space types there, adding no row.
    const goals = page.getByTestId('narrative-goals');
    await goals.getByRole('button', { name: 'Add a goal' }).focus();
    await page.keyboard.press('Space');
    await expect(goals.getByLabel('Goal 1', { exact: true })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(goals.getByRole('textbox')).toHaveCount(1);
  }

  // A revoked token pasted: one message, in place, that says what is wrong and what to do; no toast besides it.
  await page.setViewportSize(DESKTOP);
  await page.getByRole('button', { name: 'Month' }).click();
  await page.getByRole('button', { name: 'Use another token' }).click();
  await page.getByLabel('Org Admin token').fill('sbx-revoked-acme-dce0efe96c32761bc6c9ac73');
  await page.getByRole('button', { name: 'Build the pack' }).click();
  await expect(page.getByTestId('build-problem')).toHaveText(REVIEW_MESSAGES.tokenRefused);
  await expect(page.getByRole('alert').filter({ hasText: BULK_MESSAGES.invalidToken })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(1);

  // An id nothing names: "no such customer", the way back, no form.
  await page.goto('/home/customers/9999999/review');
  const unknown = page.getByTestId('unknown-customer');
  await expect(unknown.getByRole('heading', { level: 1 })).toHaveText(REVIEW_MESSAGES.unknownCustomerTitle);
  await expect(page.getByRole('button', { name: 'Build the pack' })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.setViewportSize(PHONE);
  await expectFits(page);
  await unknown.getByRole('link', { name: REVIEW_MESSAGES.backToCustomers }).click();
  await expect(page).toHaveURL(/\/home\/customers$/);
});
