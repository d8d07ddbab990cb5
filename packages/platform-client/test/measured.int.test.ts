import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformClient, type PlatformSession } from '../src/index.js';
import { startSandbox } from './start-sandbox.js';

// A Wednesday, midnight UTC: the measured cases' "since Tuesday" is 09:00 the day before.
const NOW = Date.UTC(2026, 10, 11);
const HOUR = 3_600_000;
const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('the client reads what the platform measured, page by page', () => {
  let started: Awaited<ReturnType<typeof startSandbox>>;
  let admin: PlatformSession;
  let aid: string;
  const testId = (name: string) =>
    started.sandbox.platform.world.tests.find((test) => test.aid === aid && test.testName === name)?.testId ?? '';
  const pages = () => started.sandbox.platform.calls.filter((call) => call.path.startsWith('/test-results/')).length;

  beforeAll(async () => {
    started = await startSandbox({ worldNow: NOW, rateLimitPerMinute: 100_000 });
    admin = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 10_000 }).as({
      token: started.token('org-admin'),
    });
    aid =
      (await admin.accountGroups.list()).find((group) => group.accountGroupName === 'Acme - EMEA Branches')?.aid ?? '';
  });
  afterAll(async () => {
    await started.close();
  });

  it('leaves out the round that began before the range, and follows _links.next to the end', async () => {
    // "Checkout web" runs every minute from 2 agents: 10,000 results a page, so 7 days are 3 pages.
    const from = NOW - 7 * 24 * HOUR + 30_000;
    const before = pages();
    const dates = new Set<string>();
    let results = 0;
    for await (const result of admin.testResults.stream('http-server', testId('Checkout web'), {
      aid,
      range: { startDate: iso(from), endDate: iso(NOW - 1000) },
    })) {
      results += 1;
      dates.add(result.date);
    }
    expect(pages() - before).toBe(3);
    expect(results).toBe(2 * (7 * 24 * 60 - 1));
    expect([...dates].every((date) => Date.parse(date) >= from)).toBe(true);
    // The platform's own answer began with the round in progress at the start.
    const raw = await fetch(
      `${started.baseUrl}/test-results/${testId('Checkout web')}/http-server?aid=${aid}&startDate=${iso(from)}&endDate=${iso(NOW)}`,
      { headers: { authorization: `Bearer ${started.token('org-admin')}` } },
    );
    expect(((await raw.json()) as { results: { date: string }[] }).results[0]?.date).toBe(iso(from - 30_000));
  });

  it('reads the failures by type: 3 of 5 agents since Tuesday, no round from an agent offline for 9 days', async () => {
    const failing = new Map<string, string>();
    for await (const result of admin.testResults.stream('http-server', testId('Payroll HTTP'), {
      aid,
      range: { window: '7d' },
    }))
      if (result.errorType !== 'None')
        failing.set(result.agent.agentId, failing.get(result.agent.agentId) ?? result.date);
    expect([...failing.values()]).toEqual(['2026-11-10T09:00:00Z', '2026-11-10T09:00:00Z', '2026-11-10T09:00:00Z']);
    const kiosk = [];
    for await (const result of admin.testResults.stream('http-server', testId('Kiosk portal'), {
      aid,
      range: { window: '8d' },
    }))
      kiosk.push(result);
    expect(kiosk).toEqual([]);
  });

  it('lists the alerts the rules derived, with their details and version', async () => {
    const alerts = [];
    for await (const alert of admin.alerts.list({ aid, range: { window: '7d' }, state: 'clear' })) alerts.push(alert);
    const checkout = started.sandbox.platform.world.alertRules.find((rule) => rule.ruleName === 'Checkout errors');
    const cleared = alerts.filter((alert) => alert.alertRuleId === checkout?.ruleId);
    expect(cleared.length).toBeGreaterThanOrEqual(399);
    const detail = await admin.alerts.get(cleared[0]?.id ?? '', aid);
    expect([detail.alertState, detail.meta?.version, detail.details?.[0]?.start?.metrics]).toEqual([
      'clear',
      2,
      `HTTP 503 (${detail.startDate})`,
    ]);
  });

  it('says units by test for the period, and refuses them to an organization not on usage pricing', async () => {
    let tests = 0;
    for await (const units of admin.usage.testUnits()) if (units.testId) tests += 1;
    const acme = started.sandbox.platform.world.organizations[0]?.orgId;
    const acmeAids = new Set(
      started.sandbox.platform.world.accountGroups.filter((group) => group.orgId === acme).map((group) => group.aid),
    );
    expect(tests).toBe(started.sandbox.platform.world.tests.filter((test) => acmeAids.has(test.aid)).length);
    const usage = (await admin.usage.get()).usage;
    expect(Math.round(((usage.cloudUnitsProjected ?? 0) / (usage.quota?.cloudUnitsIncluded ?? 1)) * 100)).toBe(112);
    const globex = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 10_000 }).as({
      token: started.token('org-admin', 1),
    });
    await expect(globex.usage.testUnits()[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status: 403 });
    const readOnly = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 10_000 }).as({
      token: started.token('read-only'),
    });
    await expect(readOnly.usage.get()).rejects.toMatchObject({ status: 403 });
  });

  it('keeps a version and an audit event for every write the sandbox takes', async () => {
    const id = testId('Intranet home');
    const before = await admin.tests.history(id, { aid });
    await admin.tests.update('http-server', id, { description: 'Changed by the client test' }, aid);
    const after = await admin.tests.history(id, { aid });
    expect(after).toHaveLength(before.length + 1);
    const previous = await admin.tests.get('http-server', id, { aid, versionId: before[0]?.versionId });
    expect(previous.description).toBe('Measured case: Intranet home');
    const events = [];
    for await (const event of admin.auditUserEvents.list({ aid, range: { window: '1h' } })) events.push(event);
    expect(events[0]).toMatchObject({ event: 'Test updated', resources: [{ type: 'test', name: 'Intranet home' }] });
  });
});
