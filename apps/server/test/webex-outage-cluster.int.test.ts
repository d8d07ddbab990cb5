import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Watch, WatchRun } from '@ce/contract';
import { postgresRuns } from './support/postgres-required.js';
import { Cluster, type RoundRobinClient } from './cluster.js';
import { nothingFailed, openOutageCluster, webexMatchesDeliveries, type Customer } from './support/outage-checks.js';

// Issue 56's cluster suite, its Webex part: two instances with workers on one PostgreSQL database, and Webex refusing
// for a minute while a report, an alerts migration and a watch run reach their messages: each kind (a report, a change
// set's summary, a watch's message) waits, is tried again, and arrives once when Webex is back.
const onPostgres = postgresRuns('The cluster Webex-outage test');

const LEASE_MS = 4_000;
const EMAIL = 'tam@webex-outage.test';
const PASSWORD = 'a long cluster-outage password';
const WEBEX_DOWN_MS = 60_000;
/** Alert rules of the sandbox's migration cases (Acme - Data Centers), created in Acme - Staging without conflict. */
const MIGRATED = ['Migration: portal latency', 'Migration: portal errors', 'Migration: portal availability'];

describe.runIf(onPostgres)('Webex away for a minute under a cluster at work', () => {
  const cluster = new Cluster({ jobLeaseMs: LEASE_MS });
  let browser: RoundRobinClient;
  let customer: Customer;

  beforeAll(async () => {
    // A quick platform: the three reach their message well within Webex's minute away.
    ({ browser, customer } = await openOutageCluster(cluster, EMAIL, PASSWORD, {
      latencyMs: 0,
      rateLimitPerMinute: 100_000,
    }));
  }, 180_000);
  afterAll(async () => {
    await cluster.close();
  }, 60_000);

  it('has each kind of message (a report, a change set summary, a watch message) arrive once after Webex refused for a minute', async () => {
    const { token, organization, groups } = customer;
    const group = (name: string) => {
      const found = groups.find((candidate) => candidate.accountGroupName === name);
      if (!found) throw new Error(`no account group ${name}`);
      return found;
    };
    const down = await cluster.sandboxCall('/webex/scenario', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unavailableMs: WEBEX_DOWN_MS }),
    });
    expect(down.status).toBe(200);
    const webexBackAt = Date.now() + WEBEX_DOWN_MS;

    const report = await browser.call<{ id: string }>('POST', '/api/reports', {
      kind: 'alerts-config',
      token,
      organization,
      accountGroups: [groups[0]],
      options: {},
    });
    expect(report.status).toBe(202);
    const source = group('Acme - Data Centers');
    const { rules } = (
      await browser.call<{ rules: { ruleId: string; ruleName: string }[] }>('POST', '/api/alerts-migration/rules', {
        token,
        organization,
        aid: source.aid,
      })
    ).body;
    const migration = await browser.call<{ id: string }>('POST', '/api/alerts-migration/runs', {
      token,
      organization,
      aid: source.aid,
      ruleIds: rules.filter((rule) => MIGRATED.includes(rule.ruleName)).map((rule) => rule.ruleId),
      targets: [{ aid: group('Acme - Staging').aid }],
      options: { mode: 'copy', onConflict: 'ask', whenNoTestsLeft: 'keep', keepDefault: false, includeWindows: false },
    });
    expect(migration.status, JSON.stringify(migration.body)).toBe(202);
    const watch = await browser.call<Watch>('POST', '/api/watches', {
      token,
      organization,
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@customer.example', days: 30 },
      accountGroups: [groups[1]],
      runs: 'health',
      schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
    });
    expect(watch.status, JSON.stringify(watch.body)).toBe(201);
    const run = await browser.call<WatchRun>('POST', `/api/watches/${watch.body.id}/runs`);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const keys = [`report:${report.body.id}:%`, `change-set:${migration.body.id}:%`, `watch-run:${run.body.id}`];

    // Each message meets Webex refusing: it waits, and is sent once Webex is back.
    const deliveries = async () =>
      cluster.query<{ key: string; status: string; attempts: number }>(
        'select key, status, attempts from webex_deliveries where key like any($1) order by key',
        [keys],
      );
    await vi.waitFor(
      async () => {
        const rows = await deliveries();
        expect([...new Set(rows.map((row) => row.key.split(':')[0]))].sort()).toEqual([
          'change-set',
          'report',
          'watch-run',
        ]);
        expect(rows.every((row) => row.status === 'waiting')).toBe(true);
      },
      { timeout: WEBEX_DOWN_MS, interval: 250 },
    );
    expect(Date.now()).toBeLessThan(webexBackAt);
    // The migration's page says its summary waits for Webex.
    await vi.waitFor(
      async () =>
        expect(
          (await browser.call<{ message: unknown }>('GET', `/api/alerts-migration/runs/${migration.body.id}`)).body
            .message,
        ).toMatchObject({ status: 'waiting' }),
      { timeout: WEBEX_DOWN_MS / 2, interval: 250 },
    );
    const sent = await vi.waitFor(
      async () => {
        const rows = await deliveries();
        expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
        return rows;
      },
      { timeout: 240_000, interval: 500 },
    );
    for (const row of sent) expect(row.attempts, row.key).toBeGreaterThanOrEqual(2);
    expect(Date.now()).toBeGreaterThanOrEqual(webexBackAt);

    // The pages say so, and Webex holds exactly what was recorded as sent.
    expect(
      (await browser.call<{ delivery: { status: string } }>('GET', `/api/reports/${report.body.id}`)).body,
    ).toMatchObject({
      status: 'done',
      delivery: { status: 'delivered' },
    });
    expect((await browser.call('GET', `/api/alerts-migration/runs/${migration.body.id}`)).body).toMatchObject({
      status: 'done',
      message: { status: 'sent', error: null },
    });
    const runs = (await browser.call<{ runs: WatchRun[] }>('GET', `/api/watches/${watch.body.id}/runs`)).body.runs;
    expect(runs.map((one) => [one.status, one.delivery.status])).toEqual([['done', 'sent']]);
    await nothingFailed(cluster);
    const received = await webexMatchesDeliveries(cluster, EMAIL);
    expect(received.filter((key) => key.startsWith(`change-set:${migration.body.id}:`))).toHaveLength(1);
  }, 360_000);
});
