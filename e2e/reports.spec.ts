import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { csrf, expectNoAxeViolations, sandboxToken, signIn, signInAsNewUser } from './helpers';

const dialog = (page: Page) => page.getByRole('dialog');

async function passTokenStep(page: Page, token: string) {
  await dialog(page).getByLabel('OAuth token').fill(token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
}

test('the alerts report goes from the wizard to My Reports, a downloadable XLSX and the Webex inbox', async ({
  page,
}) => {
  // A user of its own: its reports and its Webex inbox are this test's only.
  const { email } = await signInAsNewUser(page, 'TAM', '/home/tools/alerts-report');
  const admin = await sandboxToken(page, 'org-admin');
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Alerts Configuration Report' })).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Next' })).toBeDisabled();
  await passTokenStep(page, admin.token);

  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  const list = dialog(page).getByRole('list', { name: 'Account groups' });
  await expect(list.getByRole('checkbox')).toHaveCount(6);
  await expect(dialog(page).getByRole('button', { name: 'Submit' })).toBeDisabled();

  await dialog(page).getByLabel('Search account groups').fill('PRODUCTION');
  await expect(list.getByRole('checkbox')).toHaveCount(1);
  await dialog(page).getByRole('button', { name: 'Invert' }).click();
  await expect(dialog(page).getByTestId('picker-count')).toContainText('1 selected');
  await dialog(page).getByLabel('Search account groups').fill('');
  await dialog(page).getByRole('button', { name: 'Invert' }).click();
  await expect(dialog(page).getByTestId('picker-count')).toContainText('5 selected');
  await dialog(page).getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(dialog(page).getByTestId('picker-count')).toContainText('6 selected');
  await expectNoAxeViolations(page, '[role="dialog"]');

  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Report Requested Successfully' });
  await expect(toast).toBeVisible();
  await expect(dialog(page)).toHaveCount(0);
  // The tool's page says where the report went, and so does the toast: a link to its row in My Reports.
  await expect(
    page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: `requested for ${admin.organizationName}` }),
  ).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Open in My Reports' })).toBeVisible();
  await toast.getByRole('link', { name: 'Open in My Reports' }).click();
  await expect(page).toHaveURL(/\/home\/reports\?report=/);
  const row = page.getByTestId('report-row').filter({ hasText: 'Alerts Configuration Report' }).first();
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(row).toContainText('Sent to you in Webex.');
  await expectNoAxeViolations(page);

  const downloadPromise = page.waitForEvent('download');
  await row.getByRole('link', { name: /\.xlsx$/ }).click();
  const download = await downloadPromise;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await download.path()) ?? '')) as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(7);
  expect(workbook.worksheets[0]?.name).toBe('Summary');
  expect(workbook.getWorksheet('Acme - Production')?.getRow(1).getCell(1).value).toBe('Rule');

  const inbox = (await (await page.request.get(`/sandbox/webex/messages?toPersonEmail=${email}`)).json()).items as {
    markdown: string;
    file?: { name: string };
  }[];
  const delivered = inbox.find((message) => message.markdown.includes('Alerts configuration report'));
  expect(delivered?.file?.name).toBe(download.suggestedFilename());

  // Run again: the token is asked again (it was never kept), and checked before anything is sent.
  const rows = page.getByTestId('report-row').filter({ hasText: 'Alerts Configuration Report' });
  const before = await rows.count();
  await row.getByRole('button', { name: 'Run again' }).click();
  await row.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row.getByText('OAuth token not provided')).toBeVisible();
  await row.getByLabel('OAuth token for the new run').fill(admin.token);
  await row.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Report Requested Successfully' })).toBeVisible();
  await expect(rows).toHaveCount(before + 1);
});

test("a colleague's report opened by link shows among everyone's, and says whom it was sent to", async ({ page }) => {
  // A TAM of this test's own requests a report; a Super User then follows the link to it.
  const { email } = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxToken(page, 'org-admin');
  const groups = await page.request.post('/api/account-groups', {
    data: { token: admin.token },
    headers: await csrf(page),
  });
  const [group] = ((await groups.json()) as { accountGroups: { aid: string; accountGroupName: string }[] })
    .accountGroups;
  const requested = await page.request.post('/api/reports', {
    data: {
      kind: 'alerts-config',
      token: admin.token,
      organization: { id: admin.organizationId, name: admin.organizationName },
      accountGroups: [group],
      options: {},
    },
    headers: await csrf(page),
  });
  expect(requested.status(), await requested.text()).toBe(202);
  const { id } = (await requested.json()) as { id: string };

  await page.context().clearCookies();
  await signIn(page, 'superuser@demo.local', undefined, `/home/reports?report=${id}`);
  await expect(page.getByLabel("Everyone's reports")).toBeChecked();
  const row = page.locator(`[data-testid="report-row"][aria-current="true"]`);
  await expect(row).toContainText(email);
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(row).toContainText(`Sent to ${email} in Webex.`);
  await expect(row).not.toContainText('Sent to you');
  // Unticked, the Super User's own reports again (the link does not tick it back).
  await page.getByLabel("Everyone's reports").uncheck();
  await expect(page.getByLabel("Everyone's reports")).not.toBeChecked();
  await expect(page.getByTestId('report-row').filter({ hasText: email })).toHaveCount(0);
});

test('a revoked token is refused at the first step with the spec message', async ({ page }) => {
  await signIn(page, 'proserv@demo.local', undefined, '/home/tools/alerts-report');
  const revoked = await sandboxToken(page, 'revoked');
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await passTokenStep(page, revoked.token);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid OAuth token. Please check your token and try again.' }),
  ).toBeVisible();
  await expect(dialog(page).getByLabel('OAuth token')).toBeVisible();
});

test('a token check failing for another reason (502, no answer) shows the spec message, and the reason under the field', async ({
  page,
}) => {
  await signIn(page, 'proserv@demo.local');
  const admin = await sandboxToken(page, 'org-admin');
  const reason = 'The platform answered 503 to the account groups read.';
  await page.route('**/api/account-groups', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'platform_error', message: reason, requestId: 'e2e-request' } }),
    }),
  );
  await page.goto('/home/tools/alerts-report');
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await passTokenStep(page, admin.token);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid OAuth token. Please check your token and try again.' }),
  ).toBeVisible();
  await expect(dialog(page).getByRole('status', { name: 'Token check' })).toHaveText(reason);
  await expect(page.getByRole('alert').filter({ hasText: reason })).toHaveCount(0);

  // No answer at all: the same toast, and the reason says the check could not be made.
  await page.unroute('**/api/account-groups');
  await page.route('**/api/account-groups', (route) => route.abort('timedout'));
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await expect(dialog(page).getByRole('status', { name: 'Token check' })).not.toHaveText(reason);
  await expect(dialog(page).getByRole('status', { name: 'Token check' })).not.toBeEmpty();

  // Typing a new token clears the reason; a working check goes on to the selection.
  await page.unroute('**/api/account-groups');
  await dialog(page).getByLabel('OAuth token').fill('');
  await expect(dialog(page).getByRole('status', { name: 'Token check' })).toHaveCount(0);
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await expect(dialog(page).getByLabel('Organization')).toBeVisible();
});

test('Escape, the backdrop and X close the wizard and reset it', async ({ page }) => {
  await signIn(page, 'adoption@demo.local', undefined, '/home/tools/alerts-report');
  const admin = await sandboxToken(page, 'org-admin');
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await passTokenStep(page, admin.token);
  await expect(dialog(page).getByLabel('Organization')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await expect(dialog(page).getByLabel('OAuth token')).toHaveValue('');
  await dialog(page).getByLabel('OAuth token').fill('something');
  await page.getByTestId('modal-backdrop').click({ position: { x: 5, y: 5 } });
  await expect(dialog(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Alerts Report' }).click();
  await expect(dialog(page).getByLabel('OAuth token')).toHaveValue('');
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  await expect(dialog(page)).toHaveCount(0);
});

test('the wizard keeps the keyboard inside, gives focus back when it closes, and Enter in the token is Next', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/alerts-report');
  const admin = await sandboxToken(page, 'org-admin');
  const opener = page.getByRole('button', { name: 'Alerts Report' });
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(dialog(page).getByLabel('OAuth token')).toBeFocused();
  // However many times Tab is pressed, focus never reaches the page behind.
  for (let press = 0; press < 8; press++) {
    await page.keyboard.press(press % 3 === 2 ? 'Shift+Tab' : 'Tab');
    expect(await dialog(page).evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await expect(opener).toBeFocused();

  await page.keyboard.press('Enter');
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await page.keyboard.press('Enter');
  await expect(dialog(page).getByLabel('Organization')).toBeVisible();
});

test('no report tool page has a kind left disabled or "coming soon"', async ({ page }) => {
  await signIn(page, 'superuser@demo.local');
  for (const path of [
    '/home/tools/account-health',
    '/home/tools/config-report',
    '/home/tools/alerts-report',
    '/home/tools/ps-closure-documents',
    '/home/tools/tam-weekly-report',
  ]) {
    await page.goto(path);
    const buttons = page.getByRole('main').getByRole('button');
    await expect(buttons.first()).toBeVisible();
    for (const button of await buttons.all()) await expect(button, path).toBeEnabled();
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  }
});

test('the maintenance report is shown in the page and its PDF downloads', async ({ page }) => {
  await signIn(page, 'superuser@demo.local', undefined, '/home/tools/tam-maintenance-window');
  const admin = await sandboxToken(page, 'org-admin');
  await expect(page.getByText('Disclaimer:')).toBeVisible();
  await page.getByRole('button', { name: 'Maintenance Report' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Maintenance Window Report' })).toBeVisible();
  await passTokenStep(page, admin.token);
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  await dialog(page).getByRole('button', { name: 'Submit' }).click();
  await expect(dialog(page)).toHaveCount(0);

  const frame = page.frameLocator('iframe[title="Maintenance window report"]');
  await expect(frame.getByRole('heading', { name: 'Maintenance window report' })).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByText('Weekly patch window').first()).toBeVisible();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download PDF' }).click();
  const pdf = await readFile((await (await downloadPromise).path()) ?? '');
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length).toBeGreaterThanOrEqual(1);
});

test('a report that fails after its "requested" toast is told wherever the user is, and waits as a badge on My Reports', async ({
  page,
}) => {
  // A user of its own, so the failures counted on the badge are this test's only.
  const { email } = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxToken(page, 'org-admin');
  // Webex answers 429 to everything sent to this user: the report is made but cannot be delivered.
  await page.request.put('/sandbox/webex/scenario', {
    data: { throttleMs: 120_000, retryAfterSeconds: 1, toPersonEmail: email },
  });
  try {
    await page.goto('/home/tools/alerts-report');
    await page.getByRole('button', { name: 'Alerts Report' }).click();
    await passTokenStep(page, admin.token);
    await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
    await dialog(page).getByRole('button', { name: 'Select All', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Report Requested Successfully' })).toBeVisible();

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    const told = page.getByRole('status').filter({ hasText: 'Alerts Configuration Report not sent to Webex' });
    await expect(told).toBeVisible({ timeout: 25_000 });
    await expect(told).toContainText(
      `${admin.organizationName}: Webex refused the message (429): Too Many Requests. Its files are in My Reports.`,
    );
    const myReports = menu.getByRole('link', { name: /^My Reports/ });
    await expect(myReports.getByTestId('unseen-badge')).toHaveText('1 (1 failure not seen)');
    await expect(myReports).toHaveAccessibleName('My Reports (1 failure not seen)');

    // Opening the page that shows it clears the badge; the row says why.
    await myReports.click();
    await expect(myReports.getByTestId('unseen-badge')).toHaveCount(0);
    const row = page.getByTestId('report-row').filter({ hasText: 'Alerts Configuration Report' }).first();
    await expect(row).toHaveAttribute('data-status', 'done');
    await expect(row).toContainText('Webex refused the message (429): Too Many Requests');
  } finally {
    await page.request.put('/sandbox/webex/scenario', { data: { throttleMs: 0, toPersonEmail: email } });
  }
});
