import { expect, test, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { chooseCustomer, csrf, dialog, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';
import { createWatch, runWatchNow } from './watch-helpers';

/** The messages the sandbox's Webex received for one person, oldest first. */
async function messagesTo(page: Page, email: string): Promise<{ markdown?: string }[]> {
  const response = await page.request.get(`/sandbox/webex/messages?toPersonEmail=${encodeURIComponent(email)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { markdown?: string }[] }).items;
}

/** Runs the watch now and waits until the page shows the new run ended, `runs` in all. */
async function runNow(page: Page, runs: number) {
  const watch = page.getByTestId('watch');
  await watch.getByRole('button', { name: 'Run now' }).click();
  // The toast of the run before may still be up: the newest one is this run's.
  await expect(page.getByRole('status').filter({ hasText: 'Run started for' }).last()).toBeVisible();
  await expect(watch.getByTestId('watch-run')).toHaveCount(runs);
  await expect(watch.getByTestId('watch-run').first()).toContainText('Done', { timeout: 60_000 });
}

test('a watch with consent: run now, its message in Webex, the trend, a waiver, the token revoked', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { email } = await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  const groups = await groupsOf(page, admin.token);
  const [group] = groups;
  if (!group) throw new Error('the organization has account groups');
  await chooseCustomer(page, admin);
  await page.goto(`/home/customers/${admin.organizationId}`);
  await expect(page.getByRole('heading', { name: 'Account Watch' })).toBeVisible();
  await expect(page.getByTestId('no-watch')).toContainText(`${admin.organizationName} has no watch yet`);

  // A new watch: the customer's token is already there; the consent is required.
  await page.getByRole('button', { name: 'New watch' }).click();
  const form = dialog(page);
  await expect(form.getByTestId('customer-token')).toContainText(admin.organizationName);
  // The customer's groups are read at once and every one is ticked; this watch keeps the first only, to run quickly.
  for (const other of groups) await expect(form.getByRole('checkbox', { name: other.accountGroupName })).toBeChecked();
  for (const other of groups.slice(1)) await form.getByRole('checkbox', { name: other.accountGroupName }).uncheck();
  await expect(form.getByRole('checkbox', { name: group.accountGroupName })).toBeChecked();
  await form.getByLabel('How often').selectOption('daily');
  await form.getByLabel('Time zone').fill('UTC');
  await form.getByRole('button', { name: 'Create watch' }).click();
  await expect(form.getByText('name the contact who approved it')).toBeVisible();
  await form.getByLabel('Approved by (name)').fill('Dana Admin');
  await form.getByLabel('Their email').fill('dana@customer.example');
  await form.getByLabel('For (days)').fill('30');
  await expectNoAxeViolations(page);
  await form.getByRole('button', { name: 'Create watch' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Watching ${admin.organizationName}` })).toBeVisible();
  const watch = page.getByTestId('watch');
  await expect(watch).toContainText('Active');
  await expect(watch).toContainText(`…${admin.token.slice(-4)}, approved by Dana Admin`);
  // The token itself is never shown again.
  await expect(page.locator('body')).not.toContainText(admin.token);

  // Run now: the first run says the watch started, in the app and in Webex, with the report attached.
  await runNow(page, 1);
  await expect(watch.getByTestId('watch-run').first()).toContainText('Sent');
  await watch.getByText('What it said').first().click();
  await expect(watch.getByTestId('watch-run').first()).toContainText('Watch started.');
  const first = await messagesTo(page, email);
  expect(first).toHaveLength(1);
  expect(first[0]?.markdown).toContain(`**Account Watch: ${admin.organizationName}**`);
  await expect(watch.getByTestId('trend-step')).toHaveCount(1);

  // The customer's world changes; the next run names the change, and the trend has a second step.
  const planted = await page.request.post('/sandbox/te/world-changes', {
    data: { change: 'inactive-user', organizationId: admin.organizationId, aid: group.aid },
  });
  expect(planted.status()).toBe(200);
  const plantedName = ((await planted.json()) as { what: string }).what.replace(/^user (.+) <.*$/, '$1');
  await runNow(page, 2);
  const second = await messagesTo(page, email);
  expect(second).toHaveLength(2);
  expect(second[1]?.markdown?.replace(/\\(.)/g, '$1')).toContain(plantedName);
  await expect(watch.getByTestId('trend-step')).toHaveCount(2);

  // Waive the new finding: it is listed apart, with its reason.
  const finding = page.getByTestId('open-finding').filter({ hasText: plantedName }).first();
  const check = (await finding.locator('span').first().textContent()) ?? '';
  await finding.getByRole('button', { name: /^Waive / }).click();
  await dialog(page).getByLabel('Why').fill('A service account the customer keeps on purpose');
  await expectNoAxeViolations(page);
  await dialog(page).getByRole('button', { name: 'Waive', exact: true }).click();
  await expect(page.getByTestId('waiver').filter({ hasText: plantedName })).toContainText(
    'A service account the customer keeps on purpose',
  );
  // Waived, it is no longer listed as open.
  await expect(
    page.getByTestId('open-finding').filter({ hasText: plantedName }).filter({ hasText: check }),
  ).toHaveCount(0);

  // Revoking asks first; Cancel (where the dialog opens) changes nothing.
  await watch.getByRole('button', { name: 'Revoke token' }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke the stored token of ${admin.organizationName}?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(watch).toContainText(`…${admin.token.slice(-4)}`);
  await watch.getByRole('button', { name: 'Revoke token' }).click();
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(watch).toContainText('Paused');
  await expect(watch).toContainText('The stored token was revoked.');
  await expect(watch).toContainText('None: store one with the customer’s consent to resume');
  const api = await page.request.get('/api/watches', { headers: await csrf(page) });
  expect(((await api.json()) as { watches: { token: unknown }[] }).watches[0]?.token).toBeNull();

  // A new token with a new consent resumes it.
  await watch.getByRole('button', { name: 'Store a new token' }).click();
  const store = page.getByRole('dialog', { name: `Store a new token for ${admin.organizationName}` });
  await store.getByLabel('Approved by (name)').fill('Dana Admin');
  await store.getByLabel('Their email').fill('dana@customer.example');
  await store.getByLabel('For (days)').fill('30');
  await store.getByRole('button', { name: 'Store token' }).click();
  await expect(watch).toContainText('Active');
  await expect(watch).toContainText(`…${admin.token.slice(-4)}, approved by Dana Admin`);

  // Ending the waiver lists the finding as open again; focus goes to the section's heading, not the page's body.
  await page.getByTestId('waiver').filter({ hasText: plantedName }).getByRole('button', { name: 'End waiver' }).click();
  await expect(page.getByTestId('waiver')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Findings and waivers' })).toBeFocused();

  // Deleting asks first; the card goes, focus lands on Account Watch, and nothing asks for the deleted watch again.
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await watch.getByRole('button', { name: 'Delete' }).click();
  const remove = page.getByRole('dialog', { name: /^Delete the watch of / });
  await expect(remove.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await remove.getByRole('button', { name: 'Delete watch' }).click();
  await expect(page.getByTestId('no-watch')).toContainText(`${admin.organizationName} has no watch yet`);
  await expect(page.getByRole('heading', { name: 'Account Watch' })).toBeFocused();
  expect(missing).toEqual([]);
});

test('My customers lists each watched customer with its score and next run, at desktop and phone widths', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  const [group] = await groupsOf(page, admin.token);
  if (!group) throw new Error('the organization has account groups');
  // A watch made through the API, run once: what the portfolio shows.
  const id = await createWatch(page, admin, [group]);
  await runWatchNow(page, id);

  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('/home/customers');
    const row = page.getByTestId('portfolio-row').filter({ hasText: admin.organizationName });
    await expect(row).toBeVisible();
    await expect(row).toContainText('open');
    await expect(row.getByRole('link', { name: admin.organizationName })).toHaveAttribute(
      'href',
      `/home/customers/${admin.organizationId}#watch-heading`,
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `no horizontal scroll at ${viewport.width} px`).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  }
});
