import { beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_CONFIGURATION_CHECK_IDS, HEALTH_MEASURED_CHECK_IDS, healthFindingsSchema } from '@ce/contract';
import type { HealthFindings } from '@ce/contract';
import { reportFile, reportSuite, testClock, untilFinished } from './build-test-app.js';
import { sandboxTruth, type Json } from './support/sandbox-truth.js';

const DAY = 86_400_000;
type Result = { agent: { agentId: string; agentName?: string }; date: string; roundId: number } & Json;

/**
 * The measured findings of AHC v7, each equal to the truth computed here from the sandbox's own v7 answers (read
 * with the customer's token, as the platform answers anyone), written apart from the product's checks.
 */
describe('the measured health check (AHC v7)', () => {
  const suite = reportSuite('pglite', 'tam@demo.local', { clock: testClock(), rateLimitPerMinute: 100_000 });
  let findings: HealthFindings;
  let refused: HealthFindings;

  const { v7, pages } = sandboxTruth(
    () => suite.app.app,
    () => suite.customer.token,
  );
  const check = (report: HealthFindings, id: string) => {
    const found = report.checks.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no check ${id}`);
    return found;
  };
  const ids = (report: HealthFindings, id: string) =>
    check(report, id)
      .items.map((item) => item.id)
      .sort();
  const names = (id: string) => check(findings, id).items.map((item) => item.name);

  beforeAll(async () => {
    // A week of results of every test of six account groups is hundreds of pages: longer than requestReport waits.
    const findingsOf = async (token: string) => {
      const created = await suite.client.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'ahc-v7',
          token,
          organization: suite.customer.organization,
          accountGroups: suite.customer.groups,
          options: {},
        },
      });
      expect(created.statusCode, created.body).toBe(202);
      const report = await untilFinished(
        () =>
          suite.client
            .request({ method: 'GET', url: `/api/reports/${created.json<{ id: string }>().id}` })
            .then((response) => response.json<Parameters<typeof reportFile>[1] & { status: string; error?: string }>()),
        300_000,
      );
      expect(report.status, report.error ?? '').toBe('done');
      return healthFindingsSchema.parse(
        JSON.parse((await reportFile(suite.client, report, 'findings.json')).toString()),
      );
    };
    // Both at once: the second's reads wait for the first's at the organization's limit, not behind its end.
    [findings, refused] = await Promise.all([
      findingsOf(suite.customer.token),
      findingsOf(suite.world().tokens.find((token) => token.kind === 'read-only')?.token ?? ''),
    ]);
  }, 600_000);

  it('makes the configuration checks, then the measured ones, each weighed, defined and remedied', () => {
    expect(findings.checks.map((item) => item.id)).toEqual([
      ...HEALTH_CONFIGURATION_CHECK_IDS,
      ...HEALTH_MEASURED_CHECK_IDS,
    ]);
    for (const id of HEALTH_MEASURED_CHECK_IDS) {
      const made = check(findings, id);
      // Who changed what is said, not graded.
      if (id === 'changes-by-person') expect(made.weight).toBe(0);
      else expect(made.weight, id).toBeGreaterThan(0);
      expect(made.definition.length, id).toBeGreaterThan(40);
      expect(made.remediation.length, id).toBeGreaterThan(20);
    }
  });

  it('finds in the results what the sandbox measured, on both sides of every threshold', async () => {
    const to = Date.parse(findings.generatedAt);
    const from = to - 7 * DAY;
    const range = `startDate=${new Date(from).toISOString().replace(/\.\d{3}Z$/, 'Z')}&endDate=${new Date(to).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
    const kinds: Record<string, string> = {
      'agent-to-server': 'network',
      'http-server': 'http-server',
      'page-load': 'page-load',
      'dns-server': 'dns-server',
      'dns-trace': 'dns-trace',
    };
    const good = (result: Result) =>
      !result.errorDetails &&
      (result.errorType === undefined || result.errorType === 'None') &&
      !Number(result.numErrors ?? 0) &&
      !Number(result.failedQueries ?? 0) &&
      Number(result.loss ?? 0) <= 2 &&
      Number(result.avgLatency ?? 0) <= 300;
    const expected = { below: [] as string[], always: [] as string[], pairs: [] as string[], silent: [] as string[] };
    const roundsOf = new Map<string, number>();
    for (const group of suite.customer.groups) {
      const tests = (await v7(`/tests?aid=${group.aid}`)).tests as Json[];
      for (const test of tests) {
        const kind = kinds[String(test.type)];
        if (test.enabled === false || !kind) continue;
        // Every page of the range; a result dated before the answer's start is the round in progress: trimmed.
        const results: Result[] = [];
        for (let next: string | undefined = `/test-results/${test.testId}/${kind}?aid=${group.aid}&${range}`; next;) {
          const page = await v7(next);
          const start = Date.parse(String(page.startDate));
          results.push(...(page.results as Result[]).filter((result) => Date.parse(result.date) >= start));
          next = (page._links as { next?: { href: string } }).next?.href;
        }
        roundsOf.set(String(test.testId), new Set(results.map((result) => result.roundId)).size);
        const passed = results.filter(good).length;
        if (results.length === 0) {
          if (Date.parse(String(test.createdDate)) < from) expected.silent.push(String(test.testId));
          continue;
        }
        if (passed / results.length < 0.99) expected.below.push(String(test.testId));
        if (passed === 0) expected.always.push(String(test.testId));
        else
          for (const agentId of new Set(results.map((result) => result.agent.agentId)))
            if (!results.some((result) => result.agent.agentId === agentId && good(result)))
              expected.pairs.push(`${test.testId}:${agentId}`);
      }
    }
    expect(ids(findings, 'test-availability')).toEqual(expected.below.sort());
    expect(ids(findings, 'tests-always-failing')).toEqual(expected.always.sort());
    expect(ids(findings, 'agent-test-pairs-failing')).toEqual(expected.pairs.sort());
    expect(ids(findings, 'tests-without-agents')).toEqual(expected.silent.sort());
    // The planted cases, by name, either side.
    expect(names('test-availability')).toEqual(expect.arrayContaining(['Payroll HTTP', 'Checkout web', 'Branch DNS']));
    expect(names('test-availability')).not.toContain('Intranet home');
    const payroll = check(findings, 'test-availability').items.find((item) => item.name === 'Payroll HTTP');
    expect(payroll?.detail).toMatch(/3 of 5 agents failing since \d{4}-\d\d-\d\d 09:00 UTC/);
    expect(names('tests-always-failing')).toContain('Branch DNS');
    expect(names('tests-always-failing')).not.toContain('Warehouse network');
    expect(names('agent-test-pairs-failing').some((name) => name.startsWith('Warehouse network from'))).toBe(true);
    expect(names('agent-test-pairs-failing').some((name) => name.startsWith('Payroll HTTP from'))).toBe(false);
    expect(names('tests-without-agents')).toEqual(['Kiosk portal']);
    expect(check(findings, 'test-availability').status).toBe('fail');

    // Alert quality, from the alerts and the rules' details as the platform answers them.
    const started = (alert: Json) => Date.parse(String(alert.startDate));
    const ended = (alert: Json) =>
      alert.endDate && Date.parse(String(alert.endDate)) <= to ? Date.parse(String(alert.endDate)) : undefined;
    const quality = {
      noisy: [] as string[],
      flapping: [] as string[],
      silent: [] as string[],
      nobody: [] as string[],
      gone: [] as string[],
      slow: [] as string[],
    };
    for (const group of suite.customer.groups) {
      const alerts = [
        ...(await pages(`/alerts?aid=${group.aid}&window=120d`, 'alerts')),
        ...(await pages(`/alerts?aid=${group.aid}&window=30d&state=clear`, 'alerts')),
      ].filter(
        (alert, index, all) => started(alert) <= to && all.findIndex((other) => other.id === alert.id) === index,
      );
      const testIds = new Set(
        ((await v7(`/tests?aid=${group.aid}`)).tests as Json[]).map((test) => String(test.testId)),
      );
      for (const listed of (await v7(`/alerts/rules?aid=${group.aid}`)).alertRules as Json[]) {
        const rule = await v7(`/alerts/rules/${listed.ruleId}?aid=${group.aid}`);
        const ruleId = String(rule.ruleId);
        const named = ((rule.testIds as string[] | undefined) ?? []).map(String);
        const mine = alerts.filter((alert) => alert.alertRuleId === ruleId);
        const week = mine.filter((alert) => started(alert) >= to - 7 * DAY);
        const rounds = named.reduce((sum, testId) => sum + (roundsOf.get(testId) ?? 0), 0);
        if (week.length > 21 && (rounds === 0 || (week.length / rounds) * 100 > 1)) quality.noisy.push(ruleId);
        const quick = week.filter((alert) => {
          const end = ended(alert);
          return end !== undefined && end - started(alert) <= 15 * 60_000;
        });
        if (quick.length >= 5) quality.flapping.push(ruleId);
        if (named.length && !mine.some((alert) => started(alert) >= to - 30 * DAY)) quality.silent.push(ruleId);
        const notifications = (rule.notifications ?? {}) as Record<string, unknown>;
        const recipients = ((notifications.email as { recipients?: string[] } | undefined)?.recipients ?? []).length;
        const integrations = ['thirdParty', 'webhook', 'customWebhook'].some(
          (kind) => ((notifications[kind] as unknown[] | undefined) ?? []).length > 0,
        );
        if (named.length && !recipients && !integrations) quality.nobody.push(ruleId);
        if (named.some((testId) => !testIds.has(testId))) quality.gone.push(ruleId);
        const durations = mine
          .filter((alert) => (ended(alert) ?? 0) >= to - 30 * DAY)
          .map((alert) => (ended(alert) ?? 0) - started(alert))
          .sort((a, b) => a - b);
        const middle = Math.floor(durations.length / 2);
        const median =
          durations.length % 2 ? durations[middle] : ((durations[middle - 1] ?? 0) + (durations[middle] ?? 0)) / 2;
        if (durations.length && (median ?? 0) > 24 * 3_600_000) quality.slow.push(ruleId);
      }
    }
    expect(ids(findings, 'alerts-noisy')).toEqual(quality.noisy.sort());
    expect(ids(findings, 'alerts-flapping')).toEqual(quality.flapping.sort());
    expect(ids(findings, 'alerts-silent')).toEqual(quality.silent.sort());
    expect(ids(findings, 'alerts-notify-nobody')).toEqual(quality.nobody.sort());
    expect(ids(findings, 'alerts-missing-tests')).toEqual(quality.gone.sort());
    expect(ids(findings, 'alerts-time-to-clear')).toEqual(quality.slow.sort());
    expect(names('alerts-noisy')).toContain('Checkout errors');
    expect(names('alerts-noisy')).not.toContain('Payroll HTTP availability');
    // Fired more than 21 times in the week, but over a one-minute test: 0.3 per 100 rounds, not noisy.
    expect(names('alerts-noisy')).not.toContain('Orders API errors');
    expect(check(findings, 'alerts-noisy').definition).toContain('more than 21');
    expect(names('alerts-flapping')).toContain('Checkout errors');
    expect(names('alerts-silent')).toContain('Intranet errors');
    expect(names('alerts-silent')).not.toContain('Checkout errors');
    expect(names('alerts-missing-tests')).toEqual(['Retired kiosk checks']);
    // A deleted test has no name left at the platform: its id is said as an id.
    expect(check(findings, 'alerts-missing-tests').items[0]?.detail).toMatch(
      /^\d+ tests? gone of \d+ \(platform test ids? \d+(, \d+)*: the platform keeps no name of a deleted test\)$/,
    );
  }, 240_000);

  it('finds the agents as the platform lists them, and who hears of them', async () => {
    const offline: string[] = [];
    const erroring: string[] = [];
    const uncovered: string[] = [];
    for (const group of suite.customer.groups) {
      const agents = ((await v7(`/agents?aid=${group.aid}`)).agents as Json[]).filter(
        (agent) => agent.agentType !== 'cloud',
      );
      offline.push(...agents.filter((agent) => agent.agentState === 'offline').map((agent) => String(agent.agentId)));
      erroring.push(
        ...agents
          .filter((agent) => ((agent.errorDetails as unknown[]) ?? []).length)
          .map((agent) => String(agent.agentId)),
      );
      // An agent is covered when a rule on the last contact names it in its detail.
      const covered = new Set<string>();
      for (const rule of (await v7(`/agents/notification-rules?aid=${group.aid}`)).agentAlertRules as Json[])
        if (/lastContact|lastSeen/.test(String(rule.expression)))
          for (const agent of (await v7(`/agents/notification-rules/${String(rule.ruleId)}?aid=${group.aid}`))
            .agents as Json[])
            covered.add(String(agent.agentId));
      uncovered.push(
        ...agents.filter((agent) => !covered.has(String(agent.agentId))).map((agent) => String(agent.agentId)),
      );
    }
    expect(ids(findings, 'agents-offline')).toEqual([...new Set(offline)].sort());
    expect(ids(findings, 'agents-erroring')).toEqual([...new Set(erroring)].sort());
    expect(ids(findings, 'agent-offline-notifications')).toEqual([...new Set(uncovered)].sort());
    // Both sides: every agent of the group without a rule, and the one taken out of another group's rule, not the rest.
    const notified = check(findings, 'agent-offline-notifications').items;
    expect(notified.map((item) => item.name)).toEqual(expect.arrayContaining(['emea-branches-ea-offline-9d']));
    const dataCenters = notified.filter((item) => item.accountGroup === 'Acme - Data Centers');
    expect(dataCenters.map((item) => item.detail)).toEqual([
      "on none of its account group's agent notification rules on their last contact",
    ]);
    expect(
      (
        (
          await v7(
            `/agents?aid=${suite.customer.groups.find((group) => group.accountGroupName === 'Acme - Data Centers')?.aid}`,
          )
        ).agents as Json[]
      ).filter((agent) => agent.agentType !== 'cloud').length,
    ).toBeGreaterThan(1);
    const nineDays = check(findings, 'agents-offline').items.find(
      (item) => item.name === 'emea-branches-ea-offline-9d',
    );
    expect(nineDays?.detail).toMatch(/^offline since \d{4}-\d\d-\d\d \(9 days\)/);
    expect(names('agents-erroring')).toEqual(['emea-branches-ea-outdated']);
    const usage = (await v7('/usage')).usage as {
      endpointAgentsUsed: number;
      quota: { endpointAgentsIncluded: number };
    };
    const endpoints = check(findings, 'endpoint-agents-licensed');
    expect(endpoints.status).toBe(
      usage.endpointAgentsUsed / usage.quota.endpointAgentsIncluded < 0.5 ? 'warn' : 'pass',
    );
    expect(endpoints.status).toBe('warn');
    // The versions of the endpoint agents of the groups read, most first.
    const versions = new Map<string, number>();
    for (const group of suite.customer.groups)
      for (const agent of await pages(`/endpoint/agents?aid=${group.aid}`, 'agents'))
        versions.set(String(agent.version), (versions.get(String(agent.version)) ?? 0) + 1);
    const byVersion = [...versions]
      .sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0], 'en', { numeric: true }))
      .map(([version, count]) => `${count} on ${version}`);
    expect(endpoints.items[0]?.detail).toBe(
      `${usage.endpointAgentsUsed} in use of ${usage.quota.endpointAgentsIncluded} licensed (${Math.round((usage.endpointAgentsUsed / usage.quota.endpointAgentsIncluded) * 1000) / 10}%); versions in the account groups read: ${byVersion.join(', ')}`,
    );
  });

  it('says when the units run out and who uses them, from the units by test', async () => {
    const usage = (await v7('/usage')).usage as { quota: { cloudUnitsIncluded: number; monthEnd: string } };
    const tests = await pages('/usage/units/tests', 'breakdowns');
    const used = tests.reduce((sum, test) => sum + Number(test.cloudUnitsUsed), 0);
    const projected = tests.reduce((sum, test) => sum + Number(test.cloudUnitsProjected), 0);
    const included = usage.quota.cloudUnitsIncluded;
    const now = Date.parse(findings.generatedAt);
    expect(projected / included).toBeGreaterThan(1.1);
    const runOut = now + (included - used) / ((projected - used) / (Date.parse(usage.quota.monthEnd) - now));
    const units = check(findings, 'units-runway');
    expect(units.status).toBe('fail');
    expect(units.items[0]?.detail).toContain(`they run out on ${new Date(runOut).toISOString().slice(0, 10)}`);
    const top = [...tests].sort((a, b) => Number(b.cloudUnitsProjected) - Number(a.cloudUnitsProjected)).slice(0, 5);
    expect(units.items.filter((item) => item.type === 'test').map((item) => item.id)).toEqual(
      top.map((test) => String(test.testId)),
    );
  });

  it('a token refused usage (403) reads "could not be determined", never a zero', () => {
    for (const id of ['units-runway', 'endpoint-agents-licensed'] as const) {
      const made = check(refused, id);
      expect(made.status).toBe('unknown');
      expect(made.reason).toContain('403 Forbidden');
      expect(made.reason).toContain('View Billing');
      expect(made.items).toEqual([]);
    }
    // The activity log needs its own permission: who changed what is unknown, and says which.
    const changes = check(refused, 'changes-by-person');
    expect(changes).toMatchObject({ status: 'unknown', items: [] });
    expect(changes.reason).toContain('View activity log');
    // What the read-only token may read is still measured.
    expect(check(refused, 'tests-always-failing').items.map((item) => item.name)).toContain('Branch DNS');
  });
});
