import sharp from 'sharp';
import { expect, test, type Page } from './fixtures.js';
import { csrf, dialog, expectNoAxeViolations, sandboxOrgAdmin, sandboxToken, signIn } from './helpers';

type SandboxDashboard = {
  dashboardId: string;
  title: string;
  widgets: { id: string; filters?: Record<string, string[]> }[];
  layout?: { details: { widgetPositioning: { id: string }[] } };
};
type Group = { aid: string; accountGroupName: string };

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Three real screenshots, made here. */
async function screenshots() {
  return Promise.all(
    ['#1d4ed8', '#15803d', '#b45309'].map(async (colour, index) => ({
      name: `screen-${index + 1}.png`,
      mimeType: 'image/png',
      buffer: await png(480, 270, colour),
    })),
  );
}

/** The platform sandbox's own API, as the customer's token sees it. */
async function platform<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(`/sandbox/te/v7${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), path).toBe(true);
  return (await response.json()) as T;
}

async function groupsOf(page: Page, token: string): Promise<Group[]> {
  return (await platform<{ accountGroups: Group[] }>(page, token, '/account-groups')).accountGroups;
}

/** Clones a dashboard through the API, as the clone form does, for the tests that start from a gallery entry. */
async function cloneThroughApi(page: Page, dashboardId: string, aid: string, description: string) {
  const admin = await sandboxOrgAdmin(page);
  const organizationId = (
    (
      await (
        await page.request.post('/api/account-groups', { data: { token: admin.token }, headers: await csrf(page) })
      ).json()
    ).accountGroups as { organizationId: string }[]
  )[0]?.organizationId;
  const [one, two, three] = await screenshots();
  const response = await page.request.post('/api/community-dashboards', {
    headers: await csrf(page),
    multipart: {
      token: admin.token,
      organizationId: organizationId ?? '',
      aid,
      dashboardId,
      description,
      screenshot1: one as never,
      screenshot2: two as never,
      screenshot3: three as never,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

const entry = (page: Page, description: string) => page.getByRole('listitem').filter({ hasText: description });
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('Clone Dashboard: every check of the form, a fake image refused, then stored and counted', async ({ page }) => {
  await signIn(page, 'tam@demo.local');
  const before = (await (await page.request.get('/api/dashboard/metrics')).json()).provisionedDashboards as number;
  const admin = await sandboxOrgAdmin(page);
  const [group] = await groupsOf(page, admin.token);
  const [dashboard] = await platform<SandboxDashboard[]>(page, admin.token, `/dashboards?aid=${group?.aid}`);

  await page.goto('/home/tools/dashboards');
  await expect(page.getByText(/^Beta: the dashboard manager is new/)).toBeVisible();
  // The gallery is everyone's: tests beside this one may have cloned into it already (its empty state is a unit test's).
  await page.getByRole('button', { name: 'Vote & View' }).click();
  await expect(page.getByRole('heading', { name: 'Community Dashboards' })).toBeVisible();
  await page.getByRole('button', { name: 'Clone Dashboard' }).click();
  const form = page.getByRole('form', { name: 'Clone Dashboard' });

  // Nothing filled: the spec's toast, and each field says what it needs.
  await form.getByRole('button', { name: 'Clone Dashboard' }).click();
  await expect(toast(page, 'Please fill all required fields')).toBeVisible();
  await expect(form.getByText('OAuth token is required (min 34 characters)')).toBeVisible();
  for (const n of [1, 2, 3]) await expect(form.getByText(`Screenshot ${n} is required`)).toBeVisible();

  // A token the platform refuses: the toast and the banner.
  await form.getByLabel('OAuth token').fill(`sbx-not-a-real-token-${'x'.repeat(30)}`);
  await form.getByRole('button', { name: 'Validate Token' }).click();
  await expect(toast(page, 'Failed to validate OAuth token')).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid or unauthorized token. Please check your OAuth token.' }),
  ).toBeVisible();

  // Pasting the Org Admin's token validates it; its only organization is chosen.
  const tokenField = form.getByLabel('OAuth token');
  await tokenField.fill(admin.token);
  await tokenField.evaluate((element, text) => {
    const data = new DataTransfer();
    data.setData('text', text);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, admin.token);
  await expect(form.getByLabel('Organization')).toHaveValue(/.+/);
  await expect(page.getByText('Invalid or unauthorized token. Please check your OAuth token.')).toBeHidden();
  await form.getByLabel('Account group').selectOption({ label: group?.accountGroupName ?? '' });
  await form.getByLabel('Dashboard', { exact: true }).selectOption({ label: dashboard?.title ?? '' });

  const description = form.getByLabel('Description');
  await description.fill('Too short');
  await expect(form.getByText('9/50 characters minimum')).toBeVisible();
  const text = `E2E clone ${Date.now()}: availability and latency of the payroll services for the weekly review.`;
  await description.fill(text);
  await expect(form.getByText(`${text.length}/50 characters minimum`)).toBeVisible();

  // A text file named .png passes the browser's reading and is refused by the server, by its content.
  const [one, two, three] = await screenshots();
  await form.getByLabel('Screenshot 1').setInputFiles(one as never);
  await form
    .getByLabel('Screenshot 2')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image\n') });
  await form.getByLabel('Screenshot 3').setInputFiles(three as never);
  await form.getByRole('button', { name: 'Clone Dashboard' }).click();
  await expect(toast(page, 'Please upload only image files')).toBeVisible();
  await expect(form.getByText('Please upload only image files')).toBeVisible();

  // Too large, and not an image by the browser's reading: refused before sending.
  await form
    .getByLabel('Screenshot 2')
    .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await form.getByRole('button', { name: 'Clone Dashboard' }).click();
  await expect(form.getByText('File size should not exceed 5MB')).toBeVisible();
  await form
    .getByLabel('Screenshot 2')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await form.getByRole('button', { name: 'Clone Dashboard' }).click();
  await expect(form.getByText('Please upload only image files')).toBeVisible();

  await form.getByLabel('Screenshot 2').setInputFiles(two as never);
  await form.getByRole('button', { name: 'Clone Dashboard' }).click();
  await expect(toast(page, 'Dashboard stored successfully')).toBeVisible();
  await expect(tokenField).toHaveValue('');
  await expect(description).toHaveValue('');
  // The page says where it went too, after the toast has gone.
  await expect(form.getByTestId('clone-stored')).toContainText(
    `“${dashboard?.title ?? ''}” is in the community gallery`,
  );
  await expect(form.getByTestId('clone-stored').getByRole('link', { name: 'Open it in the gallery' })).toHaveAttribute(
    'href',
    /\/home\/tools\/dashboards\?dashboard=/,
  );

  // The toast links to the stored dashboard: the gallery opens with it marked.
  await page
    .getByRole('status')
    .filter({ hasText: 'Dashboard stored successfully' })
    .getByRole('link', { name: 'See it in the gallery' })
    .click();
  await expect(page).toHaveURL(/\/home\/tools\/dashboards\?dashboard=/);
  await expect(entry(page, text)).toHaveAttribute('aria-current', 'true');
  await expect(entry(page, text)).toContainText(dashboard?.title ?? '');
  await expect(entry(page, text).getByTestId('status')).toHaveText('pending');

  // Counted: the tile shows what the server counts, one more at least than before (other tests clone too).
  const metrics = page.waitForResponse((response) => response.url().endsWith('/api/dashboard/metrics'));
  await page.goto('/home/dashboard');
  const counted = ((await (await metrics).json()) as { provisionedDashboards: number }).provisionedDashboards;
  expect(counted).toBeGreaterThanOrEqual(before + 1);
  await expect(page.getByTestId('metric-tile').filter({ hasText: 'Provisioned Dashboards' })).toContainText(
    counted.toLocaleString('en-US'),
  );
});

test('the gallery: screenshots, JSON, vote and unvote across a reload, approval by a Super User', async ({
  page,
  browser,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxOrgAdmin(page);
  const [group] = await groupsOf(page, admin.token);
  const [dashboard] = await platform<SandboxDashboard[]>(page, admin.token, `/dashboards?aid=${group?.aid}`);
  const text = `E2E gallery ${Date.now()}: an executive overview of the payroll and expenses applications.`;
  await cloneThroughApi(page, dashboard?.dashboardId ?? '', group?.aid ?? '', text);

  await page.goto('/home/tools/dashboards');
  await page.getByRole('button', { name: 'Vote & View' }).click();
  const item = entry(page, text);
  await expect(item.getByTestId('votes')).toHaveText('0');

  await item.getByRole('button', { name: 'Images' }).click();
  const images = item.getByRole('img');
  await expect(images).toHaveCount(3);
  for (const image of await images.all())
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(480);
  await images.first().click();
  await expect(dialog(page).getByRole('img')).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Close' }).last().click();
  await expect(item.getByLabel('JSON preview')).toContainText(`"title": "${dashboard?.title}"`);

  await item.getByRole('button', { name: 'JSON' }).click();
  await expect(dialog(page).getByLabel('Dashboard JSON')).toContainText('"widgets"');
  await dialog(page).getByRole('button', { name: 'Copy JSON' }).click();
  await expect(toast(page, 'JSON copied to clipboard')).toBeVisible();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).title).toBe(dashboard?.title);
  await dialog(page).getByRole('button', { name: 'Close' }).last().click();

  await item.getByRole('button', { name: /^Vote/ }).click();
  await expect(toast(page, 'Vote added')).toBeVisible();
  await expect(item.getByTestId('votes')).toHaveText('1');
  await page.reload();
  await page.getByRole('button', { name: 'Vote & View' }).click();
  await expect(item.getByTestId('votes')).toHaveText('1');
  await expect(item.getByRole('button', { name: /^Voted/ })).toHaveAttribute('aria-pressed', 'true');
  await item.getByRole('button', { name: /^Voted/ }).click();
  await expect(toast(page, 'Vote removed')).toBeVisible();
  await expect(item.getByTestId('votes')).toHaveText('0');
  await item.getByRole('button', { name: 'Images' }).click();
  await expect(item.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  const reviewer = await (await browser.newContext()).newPage();
  await signIn(reviewer, 'superuser@demo.local');
  await reviewer.goto('/home/tools/dashboards');
  await reviewer.getByRole('button', { name: 'Vote & View' }).click();
  const reviewed = entry(reviewer, text);
  await reviewed.getByRole('button', { name: 'Images' }).click();
  await reviewed.getByLabel('Reviewer comment').fill('Clear and reusable');
  await reviewed.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewed.getByTestId('status')).toHaveText('approved');
  await expect(reviewed).toContainText('Approved by superuser@demo.local: “Clear and reusable”');
  await reviewer.close();
});

test('Push: the checks, a preview of what maps, then the dashboard in the second group names its own tests', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxOrgAdmin(page);
  const [source, target] = await groupsOf(page, admin.token);
  const dashboards = await platform<SandboxDashboard[]>(page, admin.token, `/dashboards?aid=${source?.aid}`);
  const sourceTests = (
    await platform<{ tests: { testId: string; testName: string }[] }>(page, admin.token, `/tests?aid=${source?.aid}`)
  ).tests;
  const targetTests = (
    await platform<{ tests: { testId: string; testName: string }[] }>(page, admin.token, `/tests?aid=${target?.aid}`)
  ).tests;
  const nameOf = new Map(sourceTests.map((test) => [test.testId, test.testName]));
  const unique = (name: string | undefined) => targetTests.filter((test) => test.testName === name).length === 1;
  // A dashboard of the first group with a test that exists, once, by name in the second.
  const pushed = dashboards.find((candidate) =>
    candidate.widgets.some((widget) => (widget.filters?.TEST ?? []).some((id) => unique(nameOf.get(id)))),
  );
  if (!pushed) throw new Error('the demo world has a dashboard whose tests exist in the second group');
  const text = `E2E push ${Date.now()}: the service view our customers ask for in every onboarding.`;
  await cloneThroughApi(page, pushed.dashboardId, source?.aid ?? '', text);

  await page.goto('/home/tools/dashboards');
  await page.getByRole('button', { name: 'Vote & View' }).click();
  await entry(page, text).getByRole('button', { name: 'Push' }).click();
  const modal = dialog(page);
  // Not reviewed yet: the dialog says so.
  await expect(
    modal.getByText('This dashboard has not been reviewed yet: check its widgets in the preview before you deploy it.'),
  ).toBeVisible();
  await modal.getByRole('button', { name: 'Deploy' }).click();
  await expect(toast(page, 'OAuth token is required to push dashboard')).toBeVisible();

  const revoked = await sandboxToken(page, 'revoked');
  await modal.getByLabel('OAuth token').fill(revoked.token);
  await modal.getByRole('button', { name: 'Load account groups' }).click();
  await expect(toast(page, 'Unauthorized: Please check your OAuth token')).toBeVisible();

  await modal.getByLabel('OAuth token').fill(admin.token);
  await modal.getByRole('button', { name: 'Load account groups' }).click();
  await expect(modal.getByLabel('Account group')).toBeEnabled();
  await modal.getByRole('button', { name: 'Deploy' }).click();
  await expect(toast(page, 'Please select at least one account to push the dashboard')).toBeVisible();

  await modal.getByLabel('Account group').selectOption({ label: target?.accountGroupName ?? '' });
  const preview = modal.getByRole('region', { name: 'Push preview' });
  await expect(preview).toContainText(`${pushed.widgets.length} widget`);
  await expect(preview.getByRole('table', { name: 'Mapped references' })).toContainText('TEST');
  await expectNoAxeViolations(page, '[role="dialog"]');
  await modal.getByRole('button', { name: 'Deploy' }).click();
  await expect(toast(page, 'Dashboard deployed successfully')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(entry(page, text).getByTestId('push-count')).toHaveText('pushed 1 time');

  const created = (await platform<SandboxDashboard[]>(page, admin.token, `/dashboards?aid=${target?.aid}`)).filter(
    (candidate) => candidate.title === pushed.title && candidate.dashboardId !== pushed.dashboardId,
  );
  expect(created).toHaveLength(1);
  const [copy] = created;
  expect(copy?.widgets).toHaveLength(pushed.widgets.length);
  const targetIds = new Set(targetTests.map((test) => test.testId));
  const named = copy?.widgets.flatMap((widget) => widget.filters?.TEST ?? []) ?? [];
  expect(named.length).toBeGreaterThan(0);
  expect(named.every((id) => targetIds.has(id))).toBe(true);
  expect(copy?.layout?.details.widgetPositioning.map((position) => position.id)).toEqual(
    copy?.widgets.map((widget) => widget.id),
  );
});
