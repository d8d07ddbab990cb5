import { expect, test, type Page } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { csrf, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';
import { createWatch, runWatchNow, type Admin, type Group } from './watch-helpers';

/** A backup watch over the group, with its first run (the baseline) done. */
async function backupWatch(page: Page, admin: Admin, group: Group): Promise<string> {
  const id = await createWatch(page, admin, [group], { runs: 'backup', drift: true });
  await runWatchNow(page, id, 1);
  return id;
}

/** Through the toolkit: a bulk run creates one BGP test in the group. */
async function bulkCreate(page: Page, admin: Admin, group: Group, testName: string) {
  const started = await page.request.post('/api/bulk/runs', {
    headers: await csrf(page),
    data: {
      kind: 'tests',
      token: admin.token,
      organization: { id: admin.organizationId, name: admin.organizationName },
      accountGroups: [group],
      templates: [{ testName, testType: 'bgp', interval: 300, prefix: '203.0.113.0/24', agentNames: [] }],
    },
  });
  expect(started.status(), await started.text()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/bulk/runs/${id}`)).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe('done');
}

/** At the platform, as the customer's admin would: a test of the group deleted with their own token. */
async function deleteAsTheCustomer(page: Page, admin: Admin, group: Group, keep: string): Promise<string> {
  const headers = { authorization: `Bearer ${admin.token}` };
  const { tests } = (await (await page.request.get(`/sandbox/te/v7/tests?aid=${group.aid}`, { headers })).json()) as {
    tests: { testId: string; testName: string; type: string }[];
  };
  const theirs = tests.find((candidate) => candidate.testName !== keep);
  if (!theirs) throw new Error('the group has a test to delete');
  const deleted = await page.request.delete(`/sandbox/te/v7/tests/${theirs.type}/${theirs.testId}?aid=${group.aid}`, {
    headers,
  });
  expect(deleted.status()).toBe(204);
  return theirs.testName;
}

test("the customer's page says who made each change its watch found: us, or the customer per the audit log", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAsNewUser(page, 'TAM');
  const admin = await sandboxOrgAdmin(page);
  const [first] = await groupsOf(page, admin.token);
  if (!first) throw new Error('the organization has account groups');
  const group = { aid: first.aid, accountGroupName: first.accountGroupName };
  const watchId = await backupWatch(page, admin, group);
  const ours = `E2E ours ${Date.now()}`;
  await bulkCreate(page, admin, group, ours);
  const theirs = await deleteAsTheCustomer(page, admin, group, ours);
  await runWatchNow(page, watchId, 2);

  // The header's count of changes opens the drift view: the timeline's changes at the customer.
  await page.goto(`/home/customers/${admin.organizationId}`);
  await page.getByTestId('period-drift').click();
  await expect(page).toHaveURL(/tool=changes/);
  const rows = page.getByTestId('timeline-row');
  const row = (name: string) => rows.filter({ hasText: `'${name}'` });
  await expect(row(ours)).toHaveCount(1);
  await expect(row(ours).getByTestId('change-actor')).toHaveText(
    /^by us \(E2E Person, bulk run, \d{1,2} [A-Z][a-z]{2}\)$/,
  );
  await expect(row(ours).getByTestId('change-actor')).toHaveAttribute('data-actor', 'us');
  await expect(row(theirs).getByTestId('change-actor')).toHaveText(
    /^by the customer \(\S+@\S+, per the platform's audit log\)$/,
  );
  await expect(row(theirs)).toContainText(`test '${theirs}' removed`);
  // Ours links to the run that made it.
  await expect(row(ours).getByRole('link', { name: `test '${ours}' added` })).toHaveAttribute(
    'href',
    /\/home\/tools\/bulk-tests\?run=/,
  );
  await expectNoAxeViolations(page, 'main');
});
