import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bgpTemplate } from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';
import { Cluster, RoundRobinClient, type ClusterProcess } from './cluster.js';

// The deployment docs/operating.md describes, as processes: the standalone sandbox, 3 web instances and
// 2 workers on one PostgreSQL database, a round-robin balancer in front. Needs PostgreSQL (CI has it).
const onPostgres = postgresRuns('Scale-out tests');

const LIMIT = 20;
const WINDOW_MS = 3_000;
const EMAIL = 'tam@scale.test';
const METRICS_TOKEN = 'scale-out-metrics-token';

/** The CPU niceness of each thread of a process (Linux: the 19th field of each thread's stat). */
function threadNiceness(instance: ClusterProcess): number[] {
  const folder = `/proc/${instance.process.pid}/task`;
  return readdirSync(folder).map((thread) => {
    const stat = readFileSync(path.join(folder, thread, 'stat'), 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}
const PASSWORD = 'a long scale-out password';

interface Group {
  aid: string;
  accountGroupName: string;
  organizationId: string;
  organizationName: string;
}

describe.runIf(onPostgres)('3 web instances and 2 workers on one PostgreSQL database', () => {
  const cluster = new Cluster({ jobLeaseMs: 6_000 });
  let web: ClusterProcess[] = [];
  let workers: ClusterProcess[] = [];
  const sandbox = (url: string, init?: RequestInit) => cluster.sandboxCall(url, init);

  beforeAll(async () => {
    await cluster.open();
    await cluster.scenario({ rateLimitPerMinute: LIMIT, windowMs: WINDOW_MS, latencyMs: 60 });
    // All five at once: one of them migrates, the others wait for it.
    const started = await cluster.start([
      { name: 'web-1', worker: false },
      { name: 'web-2', worker: false },
      { name: 'web-3', worker: false },
      { name: 'worker-1', worker: true, env: { METRICS_TOKEN } },
      { name: 'worker-2', worker: true, env: { METRICS_TOKEN } },
    ]);
    web = started.slice(0, 3);
    workers = started.slice(3);
  }, 180_000);
  afterAll(async () => {
    await cluster.close();
  }, 60_000);

  it('paces one organization across every process, survives a killed worker, and writes everything exactly once', async () => {
    // Migrations ran once: every file recorded once, whichever instance applied them.
    const files = readdirSync(path.join(import.meta.dirname, '../migrations')).filter((file) => file.endsWith('.sql'));
    const [migrations] = await cluster.query<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    expect(migrations?.count).toBe(files.length);

    await cluster.addUser(EMAIL, 'TAM', PASSWORD);
    const browser = new RoundRobinClient(web);
    expect((await browser.call('GET', '/api/app-info')).status).toBe(200);
    expect((await browser.call('POST', '/api/session', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    // The session and its anti-forgery token hold on every instance.
    for (let call = 0; call < 3; call++) expect((await browser.call('GET', '/api/session')).status).toBe(200);

    const { tokens } = (await (await sandbox('/te/tokens')).json()) as {
      tokens: { token: string; kind: string; organizationId: string }[];
    };
    const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
    if (!admin) throw new Error('the sandbox has an Org Admin token');
    const groups = (
      await browser.call<{ accountGroups: Group[] }>('POST', '/api/account-groups', { token: admin.token })
    ).body.accountGroups;
    const chosen = groups.slice(0, 3).map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
    const organization = { id: groups[0]?.organizationId ?? '', name: groups[0]?.organizationName ?? '' };
    const templates = Array.from({ length: 10 }, (_, index) => bgpTemplate(`Scale-out ${index + 1}`));

    // Two reports and a bulk run for the same organization at the same time, through different instances.
    const [alerts, windows, bulk] = await Promise.all([
      browser.call<{ id: string }>('POST', '/api/reports', {
        kind: 'alerts-config',
        token: admin.token,
        organization,
        accountGroups: chosen,
        options: {},
      }),
      browser.call<{ id: string }>('POST', '/api/reports', {
        kind: 'maintenance-window',
        token: admin.token,
        organization,
        accountGroups: [],
        options: {},
      }),
      browser.call<{ id: string }>('POST', '/api/bulk/runs', {
        kind: 'tests',
        token: admin.token,
        organization,
        accountGroups: chosen,
        templates,
      }),
    ]);
    expect([alerts.status, windows.status, bulk.status]).toEqual([202, 202, 202]);
    const runId = bulk.body.id;
    const readRun = async () =>
      (await browser.call<{ status: string; totals: Record<string, number> }>('GET', `/api/bulk/runs/${runId}`)).body;

    // A worker dies mid-run, without a word: SIGKILL.
    await vi.waitFor(async () => expect((await readRun()).totals.done).toBeGreaterThanOrEqual(3), {
      timeout: 90_000,
      interval: 100,
    });
    const [holder] = await cluster.query<{ lease_owner: string }>('select lease_owner from change_sets where id = $1', [
      runId,
    ]);
    const victim = workers.find((worker) => worker.name === holder?.lease_owner);
    if (!victim) throw new Error(`the run is held by a worker: ${holder?.lease_owner}`);
    await cluster.kill(victim);
    expect((await readRun()).status).toBe('running');

    // Once its lease has lapsed, two new workers start at the same moment: both recover at start.
    await vi.waitFor(
      async () => {
        const [row] = await cluster.query<{ lapsed: boolean }>(
          'select lease_until < now() as lapsed from change_sets where id = $1',
          [runId],
        );
        expect(row?.lapsed).toBe(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    const recovering = await cluster.start([
      { name: 'worker-3', worker: true, env: { METRICS_TOKEN } },
      { name: 'worker-4', worker: true, env: { METRICS_TOKEN } },
    ]);

    const finished = async (url: string) =>
      vi.waitFor(
        async () => {
          const body = (await browser.call<{ status: string }>('GET', url)).body;
          expect(body.status).toMatch(/^(done|failed)$/);
          return body;
        },
        { timeout: 150_000, interval: 250 },
      );
    const [alertsDone, windowsDone, runDone] = await Promise.all([
      finished(`/api/reports/${alerts.body.id}`),
      finished(`/api/reports/${windows.body.id}`),
      finished(`/api/bulk/runs/${runId}`),
    ]);
    expect(
      [alertsDone.status, windowsDone.status, runDone.status],
      JSON.stringify([alertsDone, windowsDone, runDone]).slice(0, 3000),
    ).toEqual(['done', 'done', 'done']);
    expect((runDone as unknown as { totals: Record<string, number> }).totals).toMatchObject({
      total: 30,
      done: 30,
      failed: 0,
    });
    const [generation] = await cluster.query<{ lease_generation: number }>(
      'select lease_generation from change_sets where id = $1',
      [runId],
    );
    expect(generation?.lease_generation).toBeGreaterThanOrEqual(2);

    // The platform's own counters for the product's calls, read before this test reads the platform itself (its
    // reads share the tight budget, and a read refused while the workers filled a window is not the product's 429):
    // every window at or under the limit, and 429s under 1% of calls.
    const stats = (await (await sandbox('/te/stats')).json()) as {
      windows: { orgId: string; count: number }[];
      organizations: { orgId: string; accepted: number; refused429: number }[];
    };
    const counts = stats.organizations.find((entry) => entry.orgId === admin.organizationId);
    if (!counts) throw new Error('the sandbox counted the organization');
    expect(counts.refused429 / (counts.accepted + counts.refused429), JSON.stringify(counts)).toBeLessThan(0.01);
    const used = stats.windows.filter((window) => window.orgId === admin.organizationId);
    expect(used.length).toBeGreaterThan(1);
    expect(Math.max(...used.map((window) => window.count))).toBeLessThanOrEqual(LIMIT);

    // Every test exactly once, counted at the platform.
    for (const group of chosen) {
      // This read shares the organization's tight budget with the workers: a 429 is waited out, not read.
      const listed = await vi.waitFor(
        async () => {
          const answer = await sandbox(`/te/v7/tests?aid=${group.aid}`, {
            headers: { authorization: `Bearer ${admin.token}` },
          });
          expect(answer.status).toBe(200);
          return (await answer.json()) as { tests: { testName: string }[] };
        },
        { timeout: 2 * WINDOW_MS + 10_000, interval: 500 },
      );
      const names = listed.tests.map((test) => test.testName).filter((name) => name.startsWith('Scale-out '));
      expect(names.sort(), group.accountGroupName).toEqual(templates.map((template) => template.testName).sort());
    }
    // Every Webex message once: the sandbox received exactly the messages the product recorded, one per key.
    const { items } = (await (await sandbox(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`)).json()) as {
      items: unknown[];
    };
    const [deliveries] = await cluster.query<{ count: number; keys: number }>(
      "select count(*)::int as count, count(distinct key)::int as keys from webex_deliveries where status = 'sent'",
    );
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(deliveries).toEqual({ count: items.length, keys: items.length });
    // No customer token left behind (each is erased right after its job's end is written: wait for that moment).
    await vi.waitFor(
      async () => {
        const [sealed] = await cluster.query<{ count: number }>('select count(*)::int as count from sealed_tokens');
        expect(sealed?.count).toBe(0);
      },
      { timeout: 15_000, interval: 250 },
    );

    // The balancer spread the calls over every web instance.
    expect(new Set(browser.answeredBy)).toEqual(new Set(web.map((instance) => instance.name)));

    // Each worker took its jobs on its jobs thread, below the priority of the thread answering people (decision
    // 0035), and serves that thread's counts with its own on /metrics: the workers alive finished the bulk run at
    // least (whichever took it up after the kill).
    const alive = [...workers.filter((worker) => worker !== victim), ...recovering];
    const finishedJobs = await Promise.all(
      alive.map(async (worker) => {
        expect(threadNiceness(worker)).toEqual(expect.arrayContaining([0, 10]));
        const answer = await fetch(`${worker.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        const text = await answer.text();
        expect(text.match(/^process_cpu_seconds_total\{/gm)).toHaveLength(1);
        expect(text.match(/^process_start_time_seconds\{/gm)).toHaveLength(1);
        const ready = await fetch(`${worker.url}/readyz`);
        expect([ready.status, await ready.json()]).toEqual([
          200,
          { status: 'ready', database: 'ok', queue: 'ok', jobs: 'ok' },
        ]);
        return [...text.matchAll(/^job_duration_seconds_count\{[^}]*outcome="completed"[^}]*\} (\d+)/gm)].reduce(
          (sum, match) => sum + Number(match[1]),
          0,
        );
      }),
    );
    expect(finishedJobs.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1);
  }, 400_000);
});
