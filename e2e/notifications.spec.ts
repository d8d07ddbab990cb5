import { expect, test, type Page } from './fixtures.js';
import { NOTIFICATION_POLL_MS, type NotificationsResponse } from '@ce/contract';
import { orgAdminToken, toast } from './bulk-helpers';
import { csrf, signIn, signInAsNewUser } from './helpers';

/** A bulk run whose only test cannot be created (its agent is in no account group), started as the tool does. */
async function startFailingRun(page: Page): Promise<void> {
  const token = await orgAdminToken(page);
  const listed = await page.request.post('/api/account-groups', { data: { token }, headers: await csrf(page) });
  const group = (
    (await listed.json()).accountGroups as {
      aid: string;
      accountGroupName: string;
      organizationId: string;
      organizationName: string;
    }[]
  )[0];
  if (!group) throw new Error('the sandbox token sees no account group');
  const started = await page.request.post('/api/bulk/runs', {
    headers: await csrf(page),
    data: {
      kind: 'tests',
      token,
      organization: { id: group.organizationId, name: group.organizationName },
      accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
      templates: [
        {
          testName: 'E2E Told once',
          testType: 'http-server',
          url: 'https://told.example.com',
          agentNames: ['An agent nobody has'],
        },
      ],
    },
  });
  expect(started.status(), await started.text()).toBe(202);
}

test('a failure told to a user ends with their session: not on the sign-in page, not to the next user, not in their next session', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // A user of its own: what is told to it, in this session and the next, is this test's runs only.
  const { email, password } = await signInAsNewUser(page, 'TAM');
  await startFailingRun(page);
  // Back on the dashboard (the page the run started from would tell it itself), the failure is told.
  await page.reload();
  const told = toast(page, 'Create tests failed');
  await expect(told).toBeVisible({ timeout: 20_000 });

  // Signing out: the sign-in page says so, and shows nothing of the session that ended.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, 'Logged out from all applications')).toBeVisible();
  await expect(told).toHaveCount(0);

  // Someone else signs in on this browser: nothing of the previous user.
  await signIn(page, 'proserv@demo.local');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(told).toHaveCount(0);

  // The same user, in a new browser session: the failure ended before it began, and is not told again.
  const fresh = await browser.newContext();
  try {
    const again = await fresh.newPage();
    await again.clock.install();
    await signIn(again, email, password);
    // The poll after the first asks for what ended since the first answer (and a little before it).
    const second = again.waitForResponse((response) => response.url().includes('/api/notifications?since='));
    await again.clock.fastForward(NOTIFICATION_POLL_MS.idle + 1000);
    const answer = (await (await second).json()) as NotificationsResponse;
    expect(answer.notifications.map((notification) => notification.title)).toEqual([]);
    await expect(toast(again, 'Create tests failed')).toHaveCount(0);
  } finally {
    await fresh.close();
  }
});
