import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Watch } from '@ce/contract';
import { postgresRuns } from './support/postgres-required.js';
import { bgpTemplate } from './support/templates.js';
import { Cluster, type ClusterProcess, type RoundRobinClient } from './cluster.js';

// Issue 56, item 10: a rolling deploy (SIGTERM) hands back every leased job an instance works on (reports, change
// sets, backups, watch runs): the claim goes, the token stays, and another instance resumes it at once, not once the
// lease has lapsed; the process exits within SHUTDOWN_GRACE_MS. Needs PostgreSQL (CI has it).
const onPostgres = postgresRuns('The SIGTERM hand-back tests');

const EMAIL = 'tam@handback.test';
const PASSWORD = 'a long hand-back password';
/** SHUTDOWN_GRACE_MS's default. */
const GRACE_MS = 10_000;
/** The default lease: a job that was not handed back would wait this long for another instance. */
const LEASE_MS = 60_000;
const DAILY_AT = `${String((new Date().getUTCHours() + 12) % 24).padStart(2, '0')}:00`;

describe.runIf(onPostgres)('SIGTERM mid-job on each job kind', () => {
  const cluster = new Cluster({ jobLeaseMs: LEASE_MS });
  const env = { SHUTDOWN_GRACE_MS: String(GRACE_MS) };
  let first: ClusterProcess;
  let browser: RoundRobinClient;

  beforeAll(async () => {
    await cluster.open();
    [first] = (await cluster.start([{ name: 'worker-1', worker: true, env }])) as [ClusterProcess];
    browser = await cluster.signedIn([first], EMAIL, PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await cluster.close();
  }, 60_000);

  it('hands back a report, a change set, a backup and a watch run, exits within the grace, resumed elsewhere', async () => {
    const { token, organizationId } = await cluster.orgAdmin();
    const groups = (
      await browser.call<{ accountGroups: { aid: string; accountGroupName: string; organizationName: string }[] }>(
        'POST',
        '/api/account-groups',
        { token },
      )
    ).body.accountGroups;
    const organization = { id: organizationId, name: groups[0]?.organizationName ?? '' };
    const group = { aid: groups[0]?.aid ?? '', accountGroupName: groups[0]?.accountGroupName ?? '' };
    // Every call slow: each job is still working when its instance is told to stop.
    await cluster.scenario({ latencyMs: 2_000, rateLimitPerMinute: 100_000 });

    const watch = await browser.call<Watch>('POST', '/api/watches', {
      token,
      organization,
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@customer.example', days: 30 },
      accountGroups: [group],
      runs: 'health',
      schedule: { cadence: 'daily', time: DAILY_AT, timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
    });
    expect(watch.status).toBe(201);
    await cluster.query('update watches set next_run_at = now() where id = $1', [watch.body.id]);
    // The watch's run first (made by the scheduler's next minute), then the others while it works.
    await vi.waitFor(
      async () =>
        expect(
          await cluster.query("select id from watch_runs where status = 'running' and lease_until is not null"),
        ).toHaveLength(1),
      { timeout: 120_000, interval: 200 },
    );
    const report = await browser.call<{ id: string }>('POST', '/api/reports', {
      kind: 'alerts-config',
      token,
      organization,
      accountGroups: [group],
      options: {},
    });
    expect(report.status).toBe(202);
    const templates = Array.from({ length: 48 }, (_, index) => bgpTemplate(`Hand-back ${index}`));
    const bulk = await browser.call<{ id: string }>('POST', '/api/bulk/runs', {
      kind: 'tests',
      token,
      organization,
      accountGroups: [group],
      templates,
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(202);
    const backup = await browser.call<{ backups: { id: string }[] }>('POST', '/api/backups', {
      token,
      organization,
      accountGroups: [group],
    });
    expect(backup.status).toBe(202);
    const held = `select 'report' as kind, id::text, status, lease_owner, lease_until is not null as leased
                    from report_requests where watch_run_id is null
                  union all select 'change set', id::text, status, lease_owner, lease_until is not null from change_sets
                  union all select 'backup', id::text, status, lease_owner, lease_until is not null
                    from backups where watch_run_id is null
                  union all select 'watch run', id::text, status, lease_owner, lease_until is not null from watch_runs`;
    type Held = { kind: string; id: string; status: string; lease_owner: string | null; leased: boolean };
    const byKind = (rows: Held[]) => [...rows].sort((a, b) => a.kind.localeCompare(b.kind));
    await vi.waitFor(
      async () => {
        const rows = await cluster.query<Held>(held);
        expect(
          rows
            .filter((row) => row.status === 'running' && row.leased)
            .map((row) => row.kind)
            .sort(),
        ).toEqual(['backup', 'change set', 'report', 'watch run']);
      },
      { timeout: 120_000, interval: 200 },
    );
    // The instance that takes over, up before the first stops (a rolling deploy).
    const [second] = (await cluster.start([{ name: 'worker-2', worker: true, env }])) as [ClusterProcess];
    const before = await cluster.query<Held>(held);
    expect(before.filter((row) => row.status === 'running').every((row) => row.lease_owner === 'worker-1')).toBe(true);

    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      const from = performance.now();
      first.process.once('exit', (code) => resolve({ code, ms: performance.now() - from }));
    });
    first.process.kill('SIGTERM');
    const { code, ms } = await exited;
    expect(code).toBe(0);
    expect(ms, first.output().slice(-3000)).toBeLessThan(GRACE_MS);

    // Taken up by the other instance at once: long before the first one's lease would have lapsed.
    const stoppedAt = Date.now();
    await vi.waitFor(
      async () => {
        const rows = await cluster.query<Held>(held);
        expect(byKind(rows).map((row) => [row.kind, row.lease_owner])).toEqual(
          byKind(before).map((row) => [row.kind, 'worker-2']),
        );
      },
      { timeout: LEASE_MS / 2, interval: 200 },
    );
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS / 2);
    await cluster.scenario({ latencyMs: 0 });
    const ended = await vi.waitFor(
      async () => {
        const rows = await cluster.query<Held>(held);
        expect(rows.every((row) => row.status === 'done' || row.status === 'failed')).toBe(true);
        return rows;
      },
      { timeout: 120_000, interval: 500 },
    );
    // Nothing failed by the stop, each job once.
    expect(byKind(ended).map((row) => [row.kind, row.status])).toEqual(byKind(before).map((row) => [row.kind, 'done']));
    const [items] = await cluster.query<{ done: number; all: number }>(
      "select count(*) filter (where status = 'done')::int as done, count(*)::int as all from change_set_items",
    );
    expect(items).toEqual({ done: templates.length, all: templates.length });
    // Every message once: what Webex received is what the product recorded as sent.
    const { items: inbox } = (await (
      await cluster.sandboxCall(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`)
    ).json()) as { items: { id: string }[] };
    const [sent] = await cluster.query<{ count: number }>(
      "select count(*)::int as count from webex_deliveries where status = 'sent'",
    );
    expect(inbox.length).toBeGreaterThanOrEqual(2);
    expect(inbox).toHaveLength(sent?.count ?? -1);
    expect(second.process.exitCode).toBeNull();
  }, 420_000);
});
