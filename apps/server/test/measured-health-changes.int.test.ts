import { beforeAll, describe, expect, it } from 'vitest';
import { healthFindingsSchema, type HealthFindings } from '@ce/contract';
import { reportFile, reportSuite, testClock, untilFinished } from './build-test-app.js';
import { sandboxTruth, type Json } from './support/sandbox-truth.js';

const DAY = 86_400_000;

/**
 * The measured health check of the second organization, on one account group: who changed what and the endpoint
 * agents' side that is not flagged, each equal to the truth computed here from the sandbox's own v7 answers.
 */
describe('the measured health check: who changed what, endpoint agents in use', () => {
  const suite = reportSuite('pglite', 'tam@demo.local', { clock: testClock(), rateLimitPerMinute: 100_000 });
  let findings: HealthFindings;
  let token = '';
  let aid = '';

  const { v7, pages } = sandboxTruth(
    () => suite.app.app,
    () => token,
  );
  const check = (id: string) => {
    const found = findings.checks.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no check ${id}`);
    return found;
  };

  beforeAll(async () => {
    const world = suite.world();
    const globex = world.organizations[1];
    const group = world.accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    token =
      world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === globex?.orgId)?.token ??
      '';
    if (!globex || !group || !token) throw new Error('the demo world has a second organization');
    aid = group.aid;
    // A change made now with the organization's own token: an audit event and a version of the test, by its admin.
    const changed = world.tests.find((test) => test.aid === aid && test.type === 'http-server');
    const put = await suite.app.app.inject({
      method: 'PUT',
      url: `/sandbox/te/v7/tests/http-server/${changed?.testId}?aid=${aid}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { description: 'Changed before the health check' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const created = await suite.client.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'ahc-v7',
        token,
        organization: { id: globex.orgId, name: globex.name },
        accountGroups: [{ aid, accountGroupName: group.accountGroupName }],
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
    findings = healthFindingsSchema.parse(
      JSON.parse((await reportFile(suite.client, report, 'findings.json')).toString()),
    );
  }, 600_000);

  it("says who changed what, by person, from the activity log and the changed tests' versions", async () => {
    const to = Date.parse(findings.generatedAt);
    const from = to - 7 * DAY;
    const stamp = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const within = (date: unknown) => Date.parse(String(date)) >= from && Date.parse(String(date)) <= to;
    const email = (user: unknown) => /\(([^()\s]+@[^()\s]+)\)\s*$/.exec(String(user))?.[1] ?? String(user);
    const people = new Map<string, { events: number; versions: number; what: Map<string, number>; last: string }>();
    const person = (name: string) => {
      const known = people.get(name) ?? { events: 0, versions: 0, what: new Map<string, number>(), last: '' };
      people.set(name, known);
      return known;
    };
    const events = (
      await pages(`/audit-user-events?aid=${aid}&startDate=${stamp(from)}&endDate=${stamp(to)}`, 'auditEvents')
    ).filter((event) => within(event.date) && !/^(Login|Report viewed)/.test(String(event.event)));
    const named = new Set<string>();
    for (const event of events) {
      const who = person(email(event.user));
      const words = String(event.event).replace(/\.$/, '');
      who.events += 1;
      who.what.set(words, (who.what.get(words) ?? 0) + 1);
      if (String(event.date) > who.last) who.last = String(event.date);
      for (const resource of (event.resources as Json[] | undefined) ?? [])
        if (resource.type === 'test') named.add(String(resource.name));
    }
    const tests = ((await v7(`/tests?aid=${aid}`)).tests as Json[]).filter((test) => named.has(String(test.testName)));
    for (const test of tests)
      for (const version of (await v7(`/tests/${String(test.testId)}/history?aid=${aid}&limit=500`))
        .testVersionHistory as Json[]) {
        if (!within(version.versionTimestamp)) continue;
        const who = person(email(version.createdBy));
        who.versions += 1;
        if (String(version.versionTimestamp) > who.last) who.last = String(version.versionTimestamp);
      }
    expect(events.length).toBeGreaterThan(0);
    expect([...people.values()].some((who) => who.versions > 0 && who.events > 0)).toBe(true);
    const made = check('changes-by-person');
    expect(made).toMatchObject({ status: 'pass', weight: 0 });
    expect(made.items.map((item) => item.id).sort()).toEqual([...people.keys()].sort());
    for (const item of made.items) {
      const truth = people.get(item.id);
      if (!truth) throw new Error(`no truth for ${item.id}`);
      if (truth.events)
        expect(item.detail).toContain(`${truth.events} change${truth.events === 1 ? '' : 's'} in the activity log`);
      if (truth.versions) expect(item.detail).toContain(`${truth.versions} test version`);
      else expect(item.detail).not.toContain('test version');
      expect(item.detail).toContain(`last on ${truth.last.slice(0, 10)}`);
      const top = [...truth.what].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
      if (top) expect(item.detail).toContain(`(${top[0]} ${top[1]}`);
    }
    // Most changes first.
    const totals = made.items.map((item) => {
      const truth = people.get(item.id);
      return (truth?.events ?? 0) + (truth?.versions ?? 0);
    });
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    // Informational: the score is what the graded checks made of it.
    expect(findings.changes.items.filter((change) => change.checkId === 'changes-by-person')).toEqual([]);
  });

  it('does not flag endpoint agents in use between half and all of the licences, and says their versions', async () => {
    const usage = (await v7('/usage')).usage as {
      endpointAgentsUsed: number;
      quota: { endpointAgentsIncluded: number };
    };
    const share = usage.endpointAgentsUsed / usage.quota.endpointAgentsIncluded;
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThanOrEqual(1);
    const endpoints = check('endpoint-agents-licensed');
    expect(endpoints.status).toBe('pass');
    const versions = new Map<string, number>();
    for (const agent of await pages(`/endpoint/agents?aid=${aid}`, 'agents'))
      versions.set(String(agent.version), (versions.get(String(agent.version)) ?? 0) + 1);
    const words = [...versions]
      .sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0], 'en', { numeric: true }))
      .map(([version, count]) => `${count} on ${version}`)
      .join(', ');
    expect(endpoints.items.map((item) => item.detail)).toEqual([
      `${usage.endpointAgentsUsed} in use of ${usage.quota.endpointAgentsIncluded} licensed (${Math.round(share * 1000) / 10}%); versions in the account groups read: ${words}`,
    ]);
  });
});
