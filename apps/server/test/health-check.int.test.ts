import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HEALTH_CHECK_IDS,
  HEALTH_CONFIGURATION_CHECK_IDS,
  HEALTH_PROFILES,
  healthFindingsSchema,
  type HealthFindings,
  type HealthProfile,
} from '@ce/contract';
import type { World } from '@ce/sandbox';
import {
  ANSWER_SUITE_DATABASES,
  testClock,
  reportFile,
  requestReport,
  signedInClient,
  type TestClient,
  reportSuite,
} from './build-test-app.js';

const DAY = 86_400_000;

/**
 * The findings computed here straight from the sandbox's world, written apart from the product's checks
 * (the active share is sampled minute by minute instead of merging intervals): each check's item ids.
 */
function expectedItems(world: World, aids: Set<string>, profile: HealthProfile, now: number): Record<string, string[]> {
  const older = (date: string | undefined, days: number) => date !== undefined && now - Date.parse(date) > days * DAY;
  const admins = new Set(['1', '2']);
  const users = world.users.filter((user) => Object.keys(user.roleIdsByAid).some((aid) => aids.has(aid)));
  const away = (user: (typeof users)[number], days: number) =>
    user.lastLogin ? older(user.lastLogin, days) : older(user.dateRegistered, days);
  const tests = world.tests.filter((test) => aids.has(test.aid));
  const dashboards = world.dashboards.filter((dashboard) => aids.has(dashboard.aid));
  const shown = new Set(
    dashboards.flatMap((dashboard) => dashboard.widgets.flatMap((widget) => widget.filters?.TEST ?? [])),
  );
  const alerts = world.alerts.filter((alert) => aids.has(alert.aid));
  const rules = [...new Set(alerts.map((alert) => alert.alertRuleId))];
  const since = (days: number) => now - days * DAY;
  // The middle of each minute of the window is a sample; an alert covers the samples from its start to its end. The
  // samples are marked alert by alert (a sample met by several is one), not tested one by one against every alert:
  // 43,200 samples times each alert of each rule was seconds of CPU, and a minute on a loaded machine.
  const samples = profile.alertsActiveDays * 24 * 60;
  const firstSample = since(profile.alertsActiveDays) + 30_000;
  const activeMinutes = (ruleId: string) => {
    const active = new Uint8Array(samples);
    for (const alert of alerts) {
      if (alert.alertRuleId !== ruleId) continue;
      const from = Math.max(0, Math.ceil((Date.parse(alert.startDate) - firstSample) / 60_000));
      const to = alert.endDate
        ? Math.min(samples, Math.ceil((Date.parse(alert.endDate) - firstSample) / 60_000))
        : samples;
      // (A negative end would count from the array's end: an alert over before the window marks nothing.)
      if (to > from) active.fill(1, from, to);
    }
    return active.reduce((sum, sample) => sum + sample, 0) / samples;
  };
  const trending = [...new Set(alerts.map((alert) => alert.testId))].filter((testId) => {
    const starts = alerts
      .filter((alert) => alert.testId === testId)
      .map((alert) => Date.parse(alert.startDate))
      .filter((start) => start >= since(profile.trendingIssueDays));
    const middle = since(profile.trendingIssueDays / 2);
    const second = starts.filter((start) => start >= middle).length;
    return starts.length >= 3 && second > starts.length - second;
  });
  return {
    'inactive-users': users.filter((user) => away(user, profile.inactiveUsersDays)).map((user) => user.uid),
    'login-frequency': users
      .filter((user) =>
        Object.entries(user.roleIdsByAid).some(
          ([aid, roles]) => aids.has(aid) && roles.some((role) => admins.has(role)),
        ),
      )
      .filter((user) => away(user, profile.loginFrequencyDays))
      .map((user) => user.uid),
    'alerts-active': rules.filter((ruleId) => activeMinutes(ruleId) > 0.5),
    'alerts-count': rules.filter(
      (ruleId) =>
        alerts.filter(
          (alert) => alert.alertRuleId === ruleId && Date.parse(alert.startDate) >= since(profile.alertsCountDays),
        ).length > 10,
    ),
    'trending-issue-tests': trending,
    'timeout-values': tests
      .filter((test) => {
        const limit = Number(test.config[test.type === 'page-load' ? 'pageLoadTimeLimit' : 'httpTimeLimit']);
        const normal = test.type === 'http-server' ? 5 : test.type === 'page-load' ? 10 : Infinity;
        return limit > normal && older(test.modifiedDate, profile.timeoutValuesDays);
      })
      .map((test) => test.testId),
    'unused-tests': tests
      .filter(
        (test) => older(test.createdDate, 180) && (!test.enabled || (!test.alertsEnabled && !shown.has(test.testId))),
      )
      .map((test) => test.testId),
    'sparse-dashboards': dashboards
      .filter((dashboard) => dashboard.widgets.length < 2)
      .map((dashboard) => dashboard.dashboardId),
  };
}

describe.each(ANSWER_SUITE_DATABASES)('the account health check (%s)', (database) => {
  // Dates are measured against a fixed clock (TEST_CLOCK): the suite runs this file either side of midnight.
  const suite = reportSuite(database, 'tam@demo.local', { clock: testClock(), rateLimitPerMinute: 100_000 });

  // Each test starts with none of the TAM's reports under way: one a failed or timed-out test left would end during
  // the next and count there (a run more in the score trend, a "previous run" that is not the one compared).
  afterEach(async () => {
    await vi.waitFor(
      async () => {
        const listed = (await suite.client.request({ url: '/api/reports' })).json<{ reports: { status: string }[] }>();
        expect(listed.reports.filter((report) => report.status === 'queued' || report.status === 'running')).toEqual(
          [],
        );
      },
      { timeout: 110_000, interval: 250 },
    );
  });

  // AHC v7 and AHC-IE read a week of results of every test (its measured checks): longer than other reports.
  const REPORT_WAIT_MS = 150_000;
  const run = (client: TestClient, kind: string, token: string, options: Record<string, unknown> = {}) =>
    requestReport(client, suite.customer, kind, { token, options, timeout: REPORT_WAIT_MS });
  const findingsOf = async (client: TestClient, report: Parameters<typeof reportFile>[1]) =>
    healthFindingsSchema.parse(JSON.parse((await reportFile(client, report, 'findings.json')).toString('utf8')));
  const itemsOf = (findings: HealthFindings) =>
    Object.fromEntries(findings.checks.map((check) => [check.id, check.items.map((item) => item.id).sort()]));

  it.each([
    ['ahc-v6', HEALTH_PROFILES.v6],
    ['ahc-v7', HEALTH_PROFILES.v7],
  ] as const)(
    '%s finds exactly what the world holds, with the threshold profile of its kind',
    async (kind, profile) => {
      const report = await run(suite.client, kind, suite.customer.token);
      expect(report.status, report.error ?? '').toBe('done');
      expect(
        report.artifacts
          .map((artifact: { filename: string }) => artifact.filename.replace(/-Acme-Corporation-[\d-]+\./, '.'))
          .sort(),
      ).toEqual(['findings.json', `${kind}.html`, `${kind}.pdf`, `${kind}.xlsx`].sort());
      const findings = await findingsOf(suite.client, report);
      expect(findings.kind).toBe(kind);
      // AHC v7 makes the measured checks after the configuration ones (measured-health.int.test.ts checks them).
      expect(findings.checks.map((check) => check.id)).toEqual(
        kind === 'ahc-v6' ? [...HEALTH_CONFIGURATION_CHECK_IDS] : [...HEALTH_CHECK_IDS],
      );
      const aids = new Set(suite.customer.groups.map((group) => group.aid));
      const expected = expectedItems(suite.world(), aids, profile, Date.parse(findings.generatedAt));
      const found = itemsOf(findings);
      for (const [id, ids] of Object.entries(expected)) expect(found[id], id).toEqual([...ids].sort());
      // The planted cases fall on the side of each threshold the profile puts them: they were planted whole
      // days before the world's moment, and the report was made moments after it, on the same clock.
      expect(Date.parse(findings.generatedAt) - suite.world().now).toBeGreaterThanOrEqual(0);
      expect(Date.parse(findings.generatedAt) - suite.world().now).toBeLessThan(10 * 60_000);
      const users = suite.world().users.filter((user) => user.orgId === suite.customer.organization.id);
      const signedIn = (days: number) =>
        users.find(
          (user) =>
            user.lastLogin &&
            Math.round((suite.world().now - Date.parse(user.lastLogin)) / DAY) === days &&
            user.roleIdsByAid[suite.customer.groups[0]?.aid ?? ''],
        )?.uid;
      expect(found['inactive-users']).toContain(signedIn(60));
      expect(found['inactive-users']?.includes(signedIn(35) ?? '')).toBe(kind === 'ahc-v6');
      expect(found['inactive-users']).not.toContain(signedIn(2));
      expect(found['login-frequency']?.includes(signedIn(60) ?? '')).toBe(kind === 'ahc-v6');
      const named = (check: string) =>
        findings.checks.find((candidate) => candidate.id === check)?.items.map((item) => item.name) ?? [];
      expect(named('alerts-count')).toContain('Expense app errors');
      expect(named('alerts-count')).not.toContain('Payroll availability');
      expect(named('alerts-active')).toContain('Branch VPN reachability');
      expect(named('alerts-active')).not.toContain('Certificate expiry');
      expect(named('unused-tests')).toContain('Legacy intranet portal');
      expect(named('unused-tests')).not.toContain('Partner extranet pilot');
      expect(named('timeout-values')).toEqual(expect.arrayContaining(['Payroll portal']));
      expect(named('timeout-values')).not.toContain('Expense app');
      expect(named('sparse-dashboards')).toContain('Payroll at a glance');
      expect(named('sparse-dashboards')).not.toContain('Expenses');
      // Units: the Org Admin reads /usage, so the cost of unused tests is known.
      const unused = findings.checks.find((check) => check.id === 'unused-tests');
      expect(unused?.savings?.cloudUnits).toBeGreaterThan(0);
      // All five tables, and the spreadsheet has one sheet per table plus Findings and Changes.
      expect(Object.keys(findings.tables).sort()).toEqual(
        ['alert_activity_summary', 'deployment_summary', 'quotas', 'thousandeyes_plan_overview', 'users_roles'].sort(),
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await reportFile(suite.client, report, '.xlsx')) as unknown as ArrayBuffer);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
        'Summary',
        'Findings',
        'Changes',
        'ThousandEyes plan overview',
        'Quotas',
        'Deployment summary',
        'Users and roles',
        'Alert activity summary (last 30',
      ]);
      expect((await reportFile(suite.client, report, '.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      // Webex: the score and the worst findings, then the files.
      const messages =
        suite.app.sandbox?.webex.messages.filter((message) => message.toPersonEmail === 'tam@demo.local') ?? [];
      expect(messages.some((message) => message.markdown?.includes(`score **${findings.score.value}/100**`))).toBe(
        true,
      );
    },
    2 * REPORT_WAIT_MS,
  );

  it(
    'a second run lists what changed since the first, and the score trend grows',
    async () => {
      const first = await findingsOf(suite.client, await run(suite.client, 'ahc-v7', suite.customer.token));
      // Someone signs in, and a dashboard gets its second widget.
      const user = suite
        .world()
        .users.find((candidate) => first.checks[0]?.items.some((item) => item.id === candidate.uid));
      if (!user) throw new Error('an inactive user to bring back');
      user.lastLogin = new Date(suite.world().now).toISOString();
      const sparse = suite.world().dashboards.find((dashboard) => dashboard.title === 'Payroll at a glance');
      sparse?.widgets.push({ ...sparse.widgets[0]!, id: 'added-widget', title: 'Payroll latency' });
      const second = await findingsOf(suite.client, await run(suite.client, 'ahc-v7', suite.customer.token));
      expect(second.changes.previousAt).toBe(first.generatedAt);
      expect(second.changes.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            checkId: 'inactive-users',
            change: 'resolved',
            item: expect.objectContaining({ id: user.uid }),
          }),
          expect.objectContaining({
            checkId: 'sparse-dashboards',
            change: 'resolved',
            item: expect.objectContaining({ id: sparse?.dashboardId }),
          }),
        ]),
      );
      expect(second.changes.trend.at(-1)).toEqual({ at: second.generatedAt, score: second.score.value });
      expect(second.changes.trend.length).toBe(first.changes.trend.length + 1);
    },
    3 * REPORT_WAIT_MS,
  );

  it(
    'with the read-only token, the checks it cannot read are unknown and say why; nothing crashes',
    async () => {
      const readOnly = suite.world().tokens.find((candidate) => candidate.kind === 'read-only')?.token ?? '';
      const report = await run(suite.client, 'ahc-v7', readOnly);
      expect(report.status, report.error ?? '').toBe('done');
      const findings = await findingsOf(suite.client, report);
      const status = Object.fromEntries(findings.checks.map((check) => [check.id, check]));
      for (const id of ['inactive-users', 'login-frequency', 'units-projected'] as const) {
        expect(status[id]?.status).toBe('unknown');
        expect(status[id]?.reason).toMatch(/403 Forbidden/);
      }
      expect(status['units-projected']?.reason).toContain('View Billing');
      expect(status['sparse-dashboards']?.status).not.toBe('unknown');
      expect(findings.tables.thousandeyes_plan_overview?.unavailable).toContain('403');
    },
    2 * REPORT_WAIT_MS,
  );

  it(
    'AHC-IE: Super User only, on the server too; its tables and days range as chosen',
    async () => {
      const refused = await suite.client.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'ahc-ie',
          token: suite.customer.token,
          organization: suite.customer.organization,
          accountGroups: suite.customer.groups,
          options: {},
        },
      });
      expect(refused.statusCode).toBe(403);
      const superUser = await signedInClient(suite.app.app, 'superuser@demo.local');
      const badDays = await superUser.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'ahc-ie',
          token: suite.customer.token,
          organization: suite.customer.organization,
          accountGroups: suite.customer.groups,
          options: { daysRange: 30 },
        },
      });
      expect(badDays.statusCode).toBe(400);
      const report = await run(superUser, 'ahc-ie', suite.customer.token, {
        daysRange: 14,
        tables: ['quotas', 'alert_activity_summary'],
      });
      expect(report.status, report.error ?? '').toBe('done');
      expect(report.options).toEqual({ daysRange: 14, tables: ['quotas', 'alert_activity_summary'] });
      const findings = await findingsOf(superUser, report);
      expect(findings.daysRange).toBe(14);
      expect(Object.keys(findings.tables).sort()).toEqual(['alert_activity_summary', 'quotas']);
      expect(findings.tables.alert_activity_summary?.title).toBe('Alert activity summary (last 14 days)');
    },
    2 * REPORT_WAIT_MS,
  );

  it('counts health checks on the dashboard', async () => {
    const metrics = (await suite.client.request({ method: 'GET', url: '/api/dashboard/metrics' })).json();
    expect(metrics.healthCheck).toBeGreaterThanOrEqual(5);
  });
});
