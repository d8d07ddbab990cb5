import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.js';
import { orgAdminToken, platformGet } from './bulk-helpers';
import { expectNoAxeViolations, signIn } from './helpers';

type Test = { testId: string; testName: string; type: string; interval: number };

test('backs up a group, downloads it, finds a change, restores that one item, and undoes the restore', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'tam@demo.local');
  const token = await orgAdminToken(page);
  const groups = (
    await platformGet<{ accountGroups: { aid: string; accountGroupName: string }[] }>(page, token, '/account-groups')
  ).accountGroups;
  const apac = groups.find((group) => group.accountGroupName === 'Acme - APAC Offices');
  if (!apac) throw new Error('the demo world has Acme - APAC Offices');
  const testsIn = async () => (await platformGet<{ tests: Test[] }>(page, token, `/tests?aid=${apac.aid}`)).tests;
  const target = (await testsIn()).find((candidate) => candidate.type === 'http-server');
  if (!target) throw new Error('the group has an HTTP server test');

  await page.goto('/home/tools/backup-restore');
  await expect(page.getByRole('heading', { level: 1, name: 'Backup & Restore' })).toBeVisible();
  await page.getByLabel('OAuth Token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page
    .getByRole('list', { name: 'Account groups' })
    .getByRole('checkbox', { name: 'Acme - APAC Offices' })
    .check();
  await page.getByRole('button', { name: 'Back Up Selected Groups' }).click();
  const row = page
    .getByRole('table', { name: 'Backups' })
    .getByRole('row')
    .filter({ hasText: 'Acme - APAC Offices' })
    .first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: 'Download' }).click(),
  ]);
  const bytes = readFileSync((await download.path()) ?? '');
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(download.suggestedFilename()).toMatch(/^backup-Acme-APAC-Offices-.*\.zip$/);

  // Someone changes the test at the platform after the backup.
  const changedInterval = target.interval === 300 ? 600 : 300;
  const put = await page.request.put(`/sandbox/te/v7/tests/http-server/${target.testId}?aid=${apac.aid}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { interval: changedInterval },
  });
  expect(put.status()).toBe(200);

  await row.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByTestId('drift-summary')).toContainText('1 change since the backup', { timeout: 30_000 });
  const changes = page.getByTestId('changes');
  await expect(changes).toContainText(`interval: ${target.interval} → ${changedInterval}`);
  // The values as they are, one click away.
  await changes.getByText('Raw JSON').first().click();
  await expect(changes.locator('pre').first()).toContainText('"path": "interval"');
  await changes.getByRole('checkbox', { name: new RegExp(target.testName) }).check();
  await page.getByRole('button', { name: 'Preview Restore' }).click();
  await expect(page.getByRole('table', { name: 'Restore plan' })).toContainText('update', { timeout: 30_000 });
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Apply Restore' }).click();
  // It asks first, saying what it writes where; Cancel is where it opens.
  const restoreConfirmation = page.getByRole('dialog', { name: 'Restore into Acme - APAC Offices?' });
  await expect(restoreConfirmation).toContainText('This updates 1 item in Acme - APAC Offices.');
  await expect(restoreConfirmation.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await restoreConfirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(restoreConfirmation).toBeHidden();
  await expect(page.getByTestId('restore-status')).toHaveCount(0);
  expect((await testsIn()).find((candidate) => candidate.testId === target.testId)?.interval).toBe(changedInterval);
  await page.getByRole('button', { name: 'Apply Restore' }).click();
  await restoreConfirmation.getByRole('button', { name: 'Restore now' }).click();
  await expect(page.getByTestId('restore-status')).toContainText('Finished · 1 done', { timeout: 75_000 });
  // The end-of-run toast every writing tool shows.
  await expect(page.getByRole('status').filter({ hasText: 'Restored: 1 change made' })).toBeVisible();
  await expectNoAxeViolations(page);
  expect((await testsIn()).find((candidate) => candidate.testId === target.testId)?.interval).toBe(target.interval);

  // Undo asks first, in a dialog that opens on Cancel.
  await page.getByRole('button', { name: 'Undo Restore' }).click();
  const undo = page.getByRole('dialog', { name: 'Undo Restore' });
  await expect(undo.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await undo.getByRole('button', { name: 'Undo Restore' }).click();
  await expect(page.getByRole('heading', { name: /Undo of a restore/ })).toBeVisible();
  await expect(page.getByTestId('restore-status')).toContainText('Finished · 1 done', { timeout: 75_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Undone: 1 change reversed' })).toBeVisible();
  expect((await testsIn()).find((candidate) => candidate.testId === target.testId)?.interval).toBe(changedInterval);
  // A run lives in the address as every tool's does (?run=<id>: the customer's page links there): a reload shows it.
  await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.getByRole('heading', { name: /Undo of a restore/ })).toBeVisible();
  await expect(page.getByTestId('restore-status')).toContainText('Finished · 1 done');

  // At a phone's width the restore fits its card: nothing scrolls sideways, names wrap, badges stay whole. An item
  // as the backup has it is nothing to restore, and no restore is offered.
  await page.setViewportSize({ width: 390, height: 844 });
  // The reload forgot the token, as a new page does.
  await page.getByLabel('OAuth Token', { exact: true }).fill(token);
  await row.getByRole('button', { name: 'Open' }).click();
  const unchanged = (await testsIn()).find((candidate) => candidate.testId !== target.testId);
  if (!unchanged) throw new Error('the group has a second test');
  const items = page.getByTestId('backup-items');
  await items.getByRole('searchbox', { name: "Search the backup's items" }).fill(unchanged.testName);
  await items.getByRole('checkbox', { name: unchanged.testName }).first().check();
  const overflow = await page.evaluate(() => {
    const main = document.querySelector('main');
    const list = document.querySelector('[data-testid="backup-items"] ul')?.parentElement;
    const select = document.querySelector<HTMLElement>('select[name="aid"]');
    const card = select?.closest('section[aria-label="Backup"]');
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      main: main ? main.scrollWidth - main.clientWidth : 0,
      list: list ? list.scrollWidth - list.clientWidth : -1,
      select: select && card ? select.getBoundingClientRect().right - card.getBoundingClientRect().right : -1,
    };
  });
  expect(overflow.page).toBeLessThanOrEqual(0);
  expect(overflow.main).toBeLessThanOrEqual(0);
  expect(overflow.list).toBe(0);
  expect(overflow.select).toBeLessThanOrEqual(0);
  // Into another organization, its token's field stays inside the card too.
  const other = page.getByLabel('Into another organization (with its own Org Admin token)');
  await other.check();
  const field = page.getByLabel('OAuth Token of the target organization', { exact: true });
  const past = await field.evaluate((input) => {
    const card = input.closest('section[aria-label="Backup"]');
    return card ? input.getBoundingClientRect().right - card.getBoundingClientRect().right : -1;
  });
  expect(past, 'the target token field inside its card').toBeLessThanOrEqual(0);
  await other.uncheck();
  await page.getByRole('button', { name: 'Preview Restore' }).click();
  await expect(page.getByTestId('nothing-to-restore')).toHaveText(
    'Nothing to restore: the chosen items are as the backup has them.',
    { timeout: 30_000 },
  );
  await expect(page.getByRole('button', { name: 'Apply Restore' })).toHaveCount(0);
  await page.setViewportSize({ width: 1366, height: 900 });

  // The backup is deleted after a confirmation that names it and opens on Cancel.
  const backups = page
    .getByRole('table', { name: 'Backups' })
    .getByRole('row')
    .filter({ hasText: 'Acme - APAC Offices' });
  const before = await backups.count();
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Delete this backup?' });
  await expect(confirmation).toContainText('Acme - APAC Offices');
  await expect(confirmation.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(page, '[role="dialog"]');
  await page.keyboard.press('Enter');
  await expect(confirmation).toBeHidden();
  await expect(backups).toHaveCount(before);
  await row.getByRole('button', { name: 'Delete' }).click();
  await confirmation.getByRole('button', { name: 'Delete Backup' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Deleted the backup of Acme - APAC Offices/ }),
  ).toBeVisible();
  await expect(backups).toHaveCount(before - 1);
});
