import { expect, test, type Page } from './fixtures.js';
import { expectNoAxeViolations, sandboxToken, signIn, type SandboxToken } from './helpers';

const tokenOf = async (page: Page, kind: SandboxToken['kind']) => (await sandboxToken(page, kind)).token;

async function diagnose(page: Page, token: string) {
  await page.getByLabel('OAuth token').fill(token);
  await page.getByRole('button', { name: 'Run diagnostic' }).click();
  return page.getByRole('article', { name: 'Diagnostic' });
}

test("the Org Admin's token: who it is, every tool ready, rate-limit headroom, downloads", async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/diagnostic-tool');
  const report = await diagnose(page, await tokenOf(page, 'org-admin'));
  await expect(report.getByTestId('identity')).toContainText('<');
  await expect(report).toContainText('Organization Admin');
  await expect(report).toContainText(/\d+\/\d+ requests left this minute/);
  await expect(report.getByTestId('check-org-admin')).toHaveAttribute('data-status', 'pass');
  await expect(report.getByTestId('check-permissions')).toHaveAttribute('data-status', 'pass');
  // The test's own organization: only the diagnostic's own calls are spent from its minute.
  const rate = report.getByTestId('check-rate-limit');
  await expect(rate).toContainText(/\d+ of \d+ requests left in this minute/);
  await expect(rate).toHaveAttribute('data-status', 'pass');
  await expectNoAxeViolations(page);
  // Every account group the token sees is listed with its roles (or "no role").
  const token = await tokenOf(page, 'org-admin');
  const seen = (
    (await (
      await page.request.get('/sandbox/te/v7/account-groups', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { accountGroups: { aid: string; accountGroupName: string }[] }
  ).accountGroups;
  const roles = report.getByRole('region', { name: 'Roles by account group' }).getByRole('listitem');
  await expect(roles).toHaveCount(seen.length);
  for (const group of seen)
    await expect(roles.filter({ hasText: `${group.accountGroupName} (${group.aid}):` })).toHaveCount(1);
  const tools = report.getByRole('table', { name: 'Toolkit tools' });
  await expect(tools.getByText('not ready')).toHaveCount(0);
  await expect(tools.getByText('ready', { exact: true })).toHaveCount(11);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    report.getByRole('link', { name: 'Download JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^diagnostic-\d{4}-\d{2}-\d{2}\.json$/);
  await report.getByRole('button', { name: 'Send in Webex' }).click();
  await expect(page.getByText('Diagnostic sent in Webex').first()).toBeVisible();
});

test('the read-only token: its missing permissions, the tools they stop, and the checks left unknown', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/diagnostic-tool');
  const report = await diagnose(page, await tokenOf(page, 'read-only'));
  await expect(report.getByTestId('identity')).toContainText('Read-only Auditor');
  await expect(report).toContainText('Not an Organization Admin');
  await expect(report.getByTestId('check-org-admin')).toHaveAttribute('data-status', 'fail');
  await expect(report.getByTestId('check-permissions')).toContainText(
    '5 missing: View users, View roles, View activity log, View usage and quotas, Edit tests, agents, dashboards and users.',
  );
  await expect(report.getByTestId('check-quota')).toHaveAttribute('data-status', 'unknown');
  await expect(report.getByTestId('check-quota')).toContainText('the permission View usage and quotas is missing');
  const tam = report.getByRole('table', { name: 'Toolkit tools' }).getByRole('row', { name: /TAM Activity Report/ });
  await expect(tam).toContainText('not ready');
  await expect(tam).toContainText('View activity log');
});

test('a revoked token is refused in plain words', async ({ page }) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/diagnostic-tool');
  await diagnose(page, await tokenOf(page, 'revoked'));
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid OAuth token. Please check your token and try again.' }),
  ).toBeVisible();
});
