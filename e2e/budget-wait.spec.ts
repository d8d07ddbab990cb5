import { expect, test, type Page } from './fixtures.js';
import { csrf, expectNoAxeViolations, sandboxOrgAdmin, setScenario, signIn } from './helpers';

const LIMIT = 3;
// Long enough that the wait is still on when the page has been checked with axe (seconds, on a busy CI machine), short
// enough that the last check's wait for the next window keeps the test well within its time.
const WINDOW_MS = 20_000;

/** The calls the sandbox accepted for one organization. */
async function counted(page: Page, organizationId: string) {
  const stats = (await (await page.request.get('/sandbox/te/stats')).json()) as {
    organizations: { orgId: string; accepted: number }[];
  };
  return { accepted: stats.organizations.find((entry) => entry.orgId === organizationId)?.accepted ?? 0 };
}

test("waiting for the customer's API budget is said in words with Cancel, and Cancel sends nothing more", async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local');
  const admin = await sandboxOrgAdmin(page);
  await setScenario(page, { rateLimitPerMinute: LIMIT, windowMs: WINDOW_MS });
  // Others spend this window of the customer's budget (the token check, three times).
  for (let call = 0; call < LIMIT; call++) {
    const answer = await page.request.post('/api/account-groups', {
      data: { token: admin.token },
      headers: await csrf(page),
    });
    expect(answer.status()).toBe(200);
  }

  await page.goto('/home/tools/bulk-tests');
  await page.getByLabel('OAuth Token').fill(admin.token);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const line = page.getByRole('status').filter({ hasText: `Waiting for ${admin.organizationName}'s API budget` });
  await expect(line).toBeVisible({ timeout: 2_000 });
  await expect(line).toHaveText(/about \d+ s/);
  await expectNoAxeViolations(page);

  const before = await counted(page, admin.organizationId);
  await line.getByRole('button', { name: 'Cancel' }).click();
  await expect(line).toBeHidden();
  await expect(page.getByText('Cancelled.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Account groups' })).toBeHidden();

  // The next check waits for the window to turn; the cancelled one never reaches the platform, then or after.
  const again = await page.request.post('/api/account-groups', {
    data: { token: admin.token },
    headers: await csrf(page),
  });
  expect(again.status()).toBe(200);
  expect((await counted(page, admin.organizationId)).accepted).toBe(before.accepted + 1);
});

test('a plan that reads many rules says how far it has read, in words and with a bar that fills', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/tools/alerts-migration');
  const admin = await sandboxOrgAdmin(page);
  await page.getByLabel('OAuth Token', { exact: true }).fill(admin.token);
  await page.getByRole('button', { name: 'Load Account Groups' }).click();
  await page.getByLabel('Source account group').selectOption({ label: 'Acme - Data Centers' });

  // A slow platform (2 s an answer): the lists, then the ten rules' details six at a time, take several seconds.
  await setScenario(page, { latencyMs: 2_000 });
  await page.getByRole('button', { name: 'Load Rules' }).click();
  const line = page.getByRole('status').filter({ hasText: /Reading rule \d+ of 10/ });
  await expect(line).toBeVisible({ timeout: 15_000 });
  const bar = line.getByRole('progressbar', { name: 'Reading rules' });
  const filled = async () => Number(await bar.getAttribute('aria-valuenow'));
  const first = await filled();
  expect(first).toBeLessThan(100);
  await expect.poll(filled).toBeGreaterThan(first);
  await expectNoAxeViolations(page);

  await expect(page.getByTestId('rules').getByTestId('picker-count')).toHaveText(/shown of 10/);
  await expect(line).toBeHidden();
});
