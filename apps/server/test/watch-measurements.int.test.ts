import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomerMeasurements, type Measurements, type TestMeasurement, type Watch } from '@ce/contract';
import { signedInClient, type SandboxCustomer, type TestApp, type TestClient } from './build-test-app.js';
import { watchRequest } from './support/watches.js';
import { keptMeasurements, measuredGroup, measuredWatchSuite, runWatchNow } from './support/measured-watch.js';

type Json = Record<string, unknown>;
type Result = { agent: { agentId: string }; date: string; roundId: number } & Json;

const KINDS: Record<string, string> = {
  'agent-to-server': 'network',
  'http-server': 'http-server',
  'page-load': 'page-load',
  'dns-server': 'dns-server',
  'dns-trace': 'dns-trace',
};

/**
 * Account Watch keeps what the platform measured with each run (decision 0037): equal to the truth computed here from
 * the sandbox's own v7 answers; after measured regressions planted between two runs, the second run's message says
 * what moved, and the customer page's trends have both points, for those who may see the watch only.
 */
describe('a watch keeps the measurements and says what moved', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let watch: Watch;
  const group = () => measuredGroup(customer);

  beforeAll(async () => {
    ({ testApp, tam, customer, watch } = await measuredWatchSuite());
  });
  afterAll(async () => {
    await testApp.close();
  });

  const runNow = runWatchNow;
  /** What the run's row keeps. */
  const kept = (runId: string) => keptMeasurements(testApp, runId);
  const v7 = async (path: string, token = customer.token): Promise<Json> => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: path.startsWith('http') ? new URL(path).pathname + new URL(path).search : `/sandbox/te/v7${path}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, `${path}: ${response.body.slice(0, 200)}`).toBe(200);
    return response.json<Json>();
  };
  /** A test's availability over the run's window from its v7 results, and since when its failing agents fail. */
  const truthOf = async (measured: Measurements, testId: string) => {
    const test = ((await v7(`/tests?aid=${group().aid}`)).tests as Json[]).find((one) => one.testId === testId) ?? {};
    const range = `startDate=${measured.from}&endDate=${measured.to}`;
    const results: Result[] = [];
    let next: string | undefined = `/test-results/${testId}/${KINDS[String(test.type)]}?aid=${group().aid}&${range}`;
    while (next) {
      const page = await v7(next);
      // A result dated before the answer's start is the round in progress: not the window's.
      const start = Date.parse(String(page.startDate));
      results.push(...(page.results as Result[]).filter((result) => Date.parse(result.date) >= start));
      next = (page._links as { next?: { href: string } }).next?.href;
    }
    const good = (result: Result) =>
      !result.errorDetails &&
      (result.errorType === undefined || result.errorType === 'None') &&
      !Number(result.numErrors ?? 0) &&
      !Number(result.failedQueries ?? 0) &&
      Number(result.loss ?? 0) <= 2 &&
      Number(result.avgLatency ?? 0) <= 300;
    const failingSince = new Map<string, string | undefined>();
    for (const result of results) {
      const agentId = result.agent.agentId;
      if (good(result)) failingSince.set(agentId, undefined);
      else failingSince.set(agentId, failingSince.get(agentId) ?? result.date);
    }
    const failing = [...failingSince.values()].filter((since): since is string => since !== undefined).sort();
    return {
      testName: String(test.testName),
      availability: Math.round((results.filter(good).length / results.length) * 1000) / 10,
      agents: failingSince.size,
      failingAgents: failing.length,
      failingSince: failing[0] ?? null,
    };
  };
  /** The group's enterprise agents the platform says are offline, by name. */
  const offlineNow = async () =>
    ((await v7(`/agents?aid=${group().aid}`)).agents as Json[])
      .filter((agent) => agent.agentType !== 'cloud' && agent.agentState === 'offline')
      .map((agent) => ({ name: String(agent.agentName), lastSeen: String(agent.lastSeen) }));
  const testNamed = (measured: Measurements, name: string): TestMeasurement => {
    const found = measured.tests.ok ? measured.tests.value.find((test) => test.testName === name) : undefined;
    if (!found) throw new Error(`no measurement of ${name}`);
    return found;
  };
  /** "today", a weekday within the week, else "3 Dec", in the watch's time zone (UTC). */
  const since = (iso: string) => {
    const day = (date: Date) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
    const age = Date.now() - Date.parse(iso);
    if (day(new Date(iso)) === day(new Date()) && age < 86_400_000) return 'today';
    if (age < 7 * 86_400_000)
      return new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(iso));
    return day(new Date(iso));
  };
  const change = async (kind: string) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/sandbox/te/world-changes',
      payload: { change: kind, organizationId: customer.organization.id, aid: group().aid },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string; what: string }>();
  };
  const trends = async (client: TestClient, organizationId: string, query = '') => {
    const response = await client.request({ url: `/api/customers/${organizationId}/measurements${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CustomerMeasurements>();
  };

  let first: Measurements;
  let latest: Measurements;
  /** The test the sandbox set failing between the two runs. */
  let planted = '';

  it('keeps with its run what the platform measured, equal to its v7 answers', async () => {
    const run = await runNow(tam, watch, 1);
    first = await kept(run.id);
    const payroll = testNamed(first, 'Payroll HTTP');
    const truth = await truthOf(first, payroll.testId);
    expect(payroll).toMatchObject(truth);
    expect(payroll.failingAgents).toBe(3);
    const offline = await offlineNow();
    expect(first.agents.ok && first.agents.value.offline.map((agent) => agent.agentName)).toEqual(
      offline.map((agent) => agent.name),
    );
    expect(first.agents.ok && first.agents.value.offline.map((agent) => agent.since)).toEqual(
      offline.map((agent) => agent.lastSeen),
    );
    // The first organization is on usage pricing: its units are read, projected over the included ones.
    expect(first.units.ok && first.units.value.projected).toBeGreaterThan(
      first.units.ok ? (first.units.value.included ?? 0) : 0,
    );
  });

  it('after an agent goes offline and a test starts failing, its next message says what moved', async () => {
    const agent = await change('agent-offline');
    const failing = await change('test-failing');
    planted = failing.id;
    const before = first.tests.ok ? first.tests.value.find((test) => test.testId === failing.id) : undefined;
    if (!before) throw new Error('the first run did not measure the planted test');
    const run = await runNow(tam, watch, 2);
    const second = await kept(run.id);
    const truth = await truthOf(second, failing.id);
    expect(testNamed(second, truth.testName)).toMatchObject(truth);
    latest = second;
    expect(truth.failingAgents).toBe(3);
    const offline = await offlineNow();
    expect(second.agents.ok && second.agents.value.offline.map((one) => one.agentName)).toEqual(
      offline.map((one) => one.name),
    );
    const newly = offline.find((one) => agent.what.includes(`'${one.name}'`));
    if (!newly) throw new Error(`the agent planted offline is not offline: ${agent.what}`);

    const message = (run.message ?? '').replace(/\\(.)/g, '$1');
    const [, moved = ''] = message.split(/\*\*What moved \(\d+\)\*\*\n/);
    const lines = moved
      .split('\n')
      .filter((line, index, all) => all.slice(0, index + 1).every((l) => l.startsWith('- ')));
    const percent = (value: number) => `${value.toFixed(1)}%`;
    expect(lines).toEqual([
      `- '${truth.testName}' availability ${percent(before.availability ?? 0)} → ${percent(truth.availability)}, 3 of ${truth.agents} agents failing since ${since(truth.failingSince ?? '')}`,
      `- Enterprise agents offline ${offline.length - 1} → ${offline.length}: '${newly.name}' since ${since(newly.lastSeen)}`,
    ]);
  });

  it('serves the trends of both runs, oldest first, to those who may see the watch only', async () => {
    const seen = await trends(tam, customer.organization.id);
    expect(seen.runs.map((run) => run.watchId)).toEqual([watch.id, watch.id]);
    // The worst tests by the latest run, each with what both runs kept of it.
    const worst = (latest.tests.ok ? latest.tests.value : [])
      .filter((test) => test.availability !== null)
      .sort((a, b) => (a.availability ?? 0) - (b.availability ?? 0))
      .slice(0, 5);
    expect(seen.availability.map((entry) => entry.testName)).toEqual(worst.map((test) => test.testName));
    for (const entry of seen.availability)
      expect(entry.points.map((point) => point.value)).toEqual([
        testNamed(first, entry.testName).availability,
        testNamed(latest, entry.testName).availability,
      ]);
    expect(seen.agentsOffline.map((point) => point.value)).toEqual([
      first.agents.ok ? first.agents.value.offline.length : -1,
      (first.agents.ok ? first.agents.value.offline.length : -1) + 1,
    ]);
    expect(seen.units.every((point) => point.used !== null && point.included !== null)).toBe(true);
    expect(seen.unknown.map((entry) => entry.part)).not.toContain('units');
    expect(seen.noisiestRules[0]?.ruleName).toBe('Checkout errors');

    // Another person sees nothing of the watch; a Super User sees it among everyone's, and only then.
    const proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    expect(await trends(proserv, customer.organization.id)).toMatchObject({ runs: [], availability: [], units: [] });
    const superuser = await signedInClient(testApp.app, 'superuser@demo.local');
    expect((await trends(superuser, customer.organization.id)).runs).toEqual([]);
    expect((await trends(superuser, customer.organization.id, '?everyone=true')).runs).toHaveLength(2);
    // Without the health check's capability, not at all.
    const user = await signedInClient(testApp.app, 'user@demo.local');
    expect((await user.request({ url: `/api/customers/${customer.organization.id}/measurements` })).statusCode).toBe(
      403,
    );
  });

  it('names the tests whose availability fell most since the run before, the planted one among them', async () => {
    const seen = await trends(tam, customer.organization.id);
    const was = new Map(
      (first.tests.ok ? first.tests.value : []).map((test) => [`${test.accountGroup}|${test.testId}`, test]),
    );
    // A fall of a point or more between the two runs' kept availability, the largest first, at most three.
    const fell = (latest.tests.ok ? latest.tests.value : [])
      .flatMap((test) => {
        const before = was.get(`${test.accountGroup}|${test.testId}`)?.availability ?? null;
        if (before === null || test.availability === null) return [];
        const fall = Math.round((before - test.availability) * 10) / 10;
        return fall >= 1 ? [{ test, before, fall }] : [];
      })
      .sort((a, b) => b.fall - a.fall || (a.test.availability ?? 0) - (b.test.availability ?? 0))
      .slice(0, 3);
    expect(seen.fell.map(({ points: _points, ...test }) => test)).toEqual(
      fell.map(({ test, before }) => ({
        testId: test.testId,
        testName: test.testName,
        accountGroup: test.accountGroup,
        before,
        latest: test.availability,
        agents: test.agents,
        failingAgents: test.failingAgents,
      })),
    );
    const fallen = seen.fell.find((test) => test.testId === planted);
    expect(fallen, 'the planted failing test fell').toBeDefined();
    expect(fallen?.failingAgents).toBe(3);
    expect(fallen?.points.map((point) => point.value)).toEqual([fallen?.before, fallen?.latest]);
  });

  it('keeps the units of an organization not on usage pricing as unknown, and says why, never 0', async () => {
    const token =
      testApp.sandbox?.platform.world.tokens.filter((candidate) => candidate.kind === 'org-admin')[1]?.token ?? '';
    const listed = await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } });
    const [other] = listed.json<{
      accountGroups: { aid: string; accountGroupName: string; organizationId: string; organizationName: string }[];
    }>().accountGroups;
    if (!other) throw new Error(`the second organization's token sees nothing: ${listed.body}`);
    const created = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(
        { token, organization: { id: other.organizationId, name: other.organizationName }, groups: [other] },
        { runs: 'health' },
      ),
    });
    expect(created.statusCode, created.body).toBe(201);
    const run = await runNow(tam, created.json<Watch>(), 1);
    const measured = await kept(run.id);
    expect(measured.units.ok).toBe(false);
    const reason = measured.units.ok ? '' : measured.units.reason;
    expect(reason).toContain('not on usage-based pricing');
    const seen = await trends(tam, other.organizationId);
    expect(seen.units).toEqual([{ at: measured.to, used: null, projected: null, included: null }]);
    expect(seen.unknown).toContainEqual({ part: 'units', reason });
  });
});
