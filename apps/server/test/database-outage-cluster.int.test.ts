import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_FAULT_MESSAGES, DATABASE_RETRY_AFTER_SECONDS, type Watch, type WatchRun } from '@ce/contract';
import { postgresRuns } from './support/postgres-required.js';
import { bgpTemplate } from './support/templates.js';
import { Cluster, type ClusterProcess, type RoundRobinClient } from './cluster.js';
import {
  nothingFailed,
  openOutageCluster,
  sameAsPlatform,
  webexMatchesDeliveries,
  type Customer,
} from './support/outage-checks.js';

// Issue 56's cluster suite: two instances with workers on one PostgreSQL database. The database stopped for 5 s, then
// for 2 minutes, while a bulk run, a report and a watch run are under way: people are told in words to try again
// (503, Retry-After) throughout, each instance serves again by itself, every write into the customer's account and
// every Webex message happens once, and nothing is failed by the outage. (Webex refusing for a minute:
// webex-outage-cluster.int.test.ts, beside this one.)
const onPostgres = postgresRuns('The cluster outage tests');

const LEASE_MS = 4_000;
const EMAIL = 'tam@outage.test';
const PASSWORD = 'a long cluster-outage password';
const SHORT_OUTAGE_MS = 5_000;
const LONG_OUTAGE_MS = 120_000;
/** How often each instance is asked during an outage, as a person reloading a page would. */
const PROBE_EVERY_MS = 1_000;

/** The jobs one round starts, and the tests its bulk run creates. */
interface Work {
  watchId: string;
  runId: string;
  reportId: string;
  bulkId: string;
  bulkAid: string;
  names: string[];
}

/** One answer of an instance during an outage. */
interface Probe {
  instance: string;
  url: string;
  status: number;
  retryAfter: string | null;
  body: unknown;
}

describe.runIf(onPostgres)('the database stopped under a cluster at work', () => {
  const cluster = new Cluster({ jobLeaseMs: LEASE_MS });
  let nodes: ClusterProcess[];
  let browser: RoundRobinClient;
  let customer: Customer;

  beforeAll(async () => {
    // A slow platform with a small window: every job is still at work when the database goes.
    ({ nodes, browser, customer } = await openOutageCluster(cluster, EMAIL, PASSWORD, {
      rateLimitPerMinute: 8,
      windowMs: 2_000,
      latencyMs: 2_000,
    }));
  }, 180_000);
  afterAll(async () => {
    await cluster.close();
  }, 60_000);

  /** Each instance, signed in on its own (a person whose balancer keeps sending them to it). */
  const probers = async () =>
    Promise.all(
      nodes.map(async (node) => ({
        node,
        client: await cluster.signedIn([node], `probe-${node.name}@outage.test`, PASSWORD),
      })),
    );

  /** Stops the database for `ms`, asking every instance meanwhile; answers what they said. */
  async function outage(ms: number, asking: Awaited<ReturnType<typeof probers>>): Promise<Probe[]> {
    const probes: Probe[] = [];
    await cluster.databaseAway(true);
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const round = asking.flatMap(({ node, client }) => [
        client.call('GET', '/api/reports').then(
          ({ status, body }) => ({
            instance: node.name,
            url: '/api/reports',
            status,
            retryAfter: client.lastHeaders?.get('retry-after') ?? null,
            body,
          }),
          (error: unknown) => ({
            instance: node.name,
            url: '/api/reports',
            status: 0,
            retryAfter: null,
            body: String(error),
          }),
        ),
        fetch(`${node.url}/readyz`).then(
          async (answer) => ({
            instance: node.name,
            url: '/readyz',
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
            body: await answer.json(),
          }),
          (error: unknown) => ({
            instance: node.name,
            url: '/readyz',
            status: 0,
            retryAfter: null,
            body: String(error),
          }),
        ),
      ]);
      probes.push(...(await Promise.all(round)));
      await pause(PROBE_EVERY_MS);
    }
    await cluster.databaseAway(false);
    return probes;
  }

  /** Every answer during the outage was "try again" in words; none was a 500 or a refused connection. */
  function toldToTryAgain(probes: Probe[]): void {
    const pages = probes.filter((probe) => probe.url === '/api/reports');
    expect(pages.length).toBeGreaterThanOrEqual(2 * nodes.length);
    for (const probe of pages)
      expect(probe, JSON.stringify(probe)).toMatchObject({
        status: 503,
        retryAfter: String(DATABASE_RETRY_AFTER_SECONDS),
        body: { error: { code: 'database_unavailable', message: DATABASE_FAULT_MESSAGES.unreachable } },
      });
    for (const probe of probes.filter((candidate) => candidate.url === '/readyz'))
      expect(probe, JSON.stringify(probe)).toMatchObject({ status: 503, body: { database: 'unreachable' } });
    for (const node of nodes) expect(pages.some((probe) => probe.instance === node.name)).toBe(true);
  }

  /** Each instance answers again by itself, people and `/readyz` alike. */
  async function servesAgain(asking: Awaited<ReturnType<typeof probers>>): Promise<void> {
    await vi.waitFor(
      async () => {
        for (const { node, client } of asking) {
          expect((await client.call('GET', '/api/reports')).status, node.name).toBe(200);
          const ready = await fetch(`${node.url}/readyz`);
          expect(ready.status, `${node.name}: ${await ready.text()}`).toBe(200);
        }
      },
      { timeout: 90_000, interval: 500 },
    );
  }

  /** A watch run, a report and a bulk run started at once on `[watch, report, bulk]` groups; named by `round`. */
  async function startWork(round: number, [watchGroup, reportGroup, bulkGroup]: Customer['groups']): Promise<Work> {
    const { token, organization } = customer;
    const watch = await browser.call<Watch>('POST', '/api/watches', {
      token,
      organization,
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@customer.example', days: 30 },
      accountGroups: [watchGroup],
      runs: 'health',
      schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
    });
    expect(watch.status, JSON.stringify(watch.body)).toBe(201);
    const run = await browser.call<WatchRun>('POST', `/api/watches/${watch.body.id}/runs`);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    // Every account group's rules, each read at the slow platform's pace: the report is still at work when the bulk
    // run and the watch run are (over two groups it once ended before the watch run began).
    const report = await browser.call<{ id: string }>('POST', '/api/reports', {
      kind: 'alerts-config',
      token,
      organization,
      accountGroups: [reportGroup, ...customer.groups.filter((group) => group.aid !== reportGroup?.aid)],
      options: {},
    });
    expect(report.status).toBe(202);
    const names = Array.from({ length: 48 }, (_, index) => `Outage ${round}.${index + 1}`);
    const bulk = await browser.call<{ id: string }>('POST', '/api/bulk/runs', {
      kind: 'tests',
      token,
      organization,
      accountGroups: [bulkGroup],
      templates: names.map((name) => bgpTemplate(name)),
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(202);
    return {
      watchId: watch.body.id,
      runId: run.body.id,
      reportId: report.body.id,
      bulkId: bulk.body.id,
      bulkAid: bulkGroup?.aid ?? '',
      names,
    };
  }

  /** Where the three jobs of `work` stand: their status, and whether a live lease holds them. */
  const standing = async (work: Work) =>
    (
      await cluster.query<{ kind: string; status: string; held: boolean }>(
        `select 'report' as kind, status, lease_until > now() as held from report_requests where id = $1
         union all select 'bulk run', status, lease_until > now() from change_sets where id = $2
         union all select 'watch run', status, lease_until > now() from watch_runs where id = $3`,
        [work.reportId, work.bulkId, work.runId],
      )
    )
      .map((row) => `${row.kind}: ${row.status}${row.held ? ' (held)' : ''}`)
      .sort();

  /** The three at work, each held by a worker, the bulk run with tests created. */
  const underWay = (work: Work) =>
    vi.waitFor(
      async () => {
        expect(await standing(work)).toEqual([
          'bulk run: running (held)',
          'report: running (held)',
          'watch run: running (held)',
        ]);
        const [items] = await cluster.query<{ done: number }>(
          "select count(*)::int as done from change_set_items where run_id = $1 and status = 'done'",
          [work.bulkId],
        );
        expect(items?.done).toBeGreaterThanOrEqual(2);
      },
      { timeout: 120_000, interval: 200 },
    );

  /** Each job of `work` done once: the tests in the account as recorded, the report delivered, the watch's message sent. */
  async function doneOnce(work: Work): Promise<void> {
    expect(await standing(work)).toEqual(['bulk run: done', 'report: done', 'watch run: done']);
    await sameAsPlatform(cluster, browser, customer, work.bulkId, work.bulkAid, work.names);
    const report = await browser.call<{ delivery: { status: string } }>('GET', `/api/reports/${work.reportId}`);
    expect(report.body.delivery.status).toBe('delivered');
    const runs = (await browser.call<{ runs: WatchRun[] }>('GET', `/api/watches/${work.watchId}/runs`)).body.runs;
    expect(runs.map((run) => [run.id, run.status, run.delivery.status])).toEqual([[work.runId, 'done', 'sent']]);
  }

  it('tells people to try again throughout a 5 s and a 2 min outage, serves again, and does every write and message once', async () => {
    const asking = await probers();
    const { groups } = customer;

    // A watch run, a report and a bulk run at work: the database goes for 5 s.
    const first = await startWork(1, groups.slice(0, 3));
    await underWay(first);
    toldToTryAgain(await outage(SHORT_OUTAGE_MS, asking));
    await servesAgain(asking);

    // Three more at work (the first three resuming meanwhile): the database goes for 2 minutes.
    const second = await startWork(2, groups.slice(3, 6));
    await underWay(second);
    toldToTryAgain(await outage(LONG_OUTAGE_MS, asking));
    await servesAgain(asking);

    // Every job ends done, once, with what the platform holds; every message once; nothing failed.
    await cluster.scenario({ latencyMs: 0 });
    await vi.waitFor(
      async () => {
        for (const work of [first, second])
          expect((await standing(work)).filter((row) => /queued|running/.test(row))).toEqual([]);
      },
      { timeout: 180_000, interval: 500 },
    );
    await doneOnce(first);
    await doneOnce(second);
    await nothingFailed(cluster);
    const received = await webexMatchesDeliveries(cluster, EMAIL);
    for (const work of [first, second]) {
      expect(received).toContain(`watch-run:${work.runId}`);
      expect(received.some((key) => key.startsWith(`report:${work.reportId}:`))).toBe(true);
    }
    for (const node of nodes) expect(node.process.exitCode, node.name).toBeNull();
  }, 600_000);
});
