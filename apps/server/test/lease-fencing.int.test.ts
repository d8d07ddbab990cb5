import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeSetRepository } from '../src/core/change-sets/repository.js';
import { LeaseLostError } from '../src/core/lease.js';
import { HeldJob } from '../src/core/leased-job.js';
import { ReportsRepository } from '../src/modules/reports/reports.repository.js';
import {
  bgpTemplate,
  createTestApp,
  sandboxCustomer,
  startBulkTests,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';

// The database's clock is another process's here (PGlite runs on this process's clock, so it cannot be skewed apart).
const onPostgres = postgresRuns('Lease clock tests');

const HOUR_MS = 3_600_000;

describe.runIf(onPostgres)("leases judged by the database's clock, not an instance's", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('postgres', { WORKERS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await testApp?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];

  /** A change set held by another worker, its lease running until `leaseUntil` (SQL, on the database's clock). */
  async function heldRun(leaseUntil: string): Promise<string> {
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const tokenId = await testApp.tokens.seal('token-of-a-run');
    const [run] = await sql<{ id: string }>(
      `insert into change_sets (user_id, kind, organization_id, organization_name, input, status, token_id,
         started_at, lease_until, lease_owner, lease_generation)
       values ($1, 'tests', '9000', 'Acme', '{}', 'running', $2, now(), ${leaseUntil}, 'worker-a', 1) returning id`,
      [tam?.id, tokenId],
    );
    return run?.id ?? '';
  }

  /** This process's clock, an hour off the database's. */
  const skew = (offsetMs: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + offsetMs);
  };

  it('an instance whose clock runs an hour ahead neither takes a live lease nor sends its job back as lapsed', async () => {
    const runId = await heldRun("now() + interval '60 seconds'");
    skew(HOUR_MS);
    const repository = new ChangeSetRepository(testApp.database.db);
    expect(await repository.leases.claim(runId, 'worker-b')).toBeUndefined();
    expect(await testApp.jobs.changeSets.recoverOrphans(false)).toEqual({ requeued: 0, failed: 0 });
    const [row] = await sql<{ status: string; lease_owner: string; lease_generation: number }>(
      'select status, lease_owner, lease_generation from change_sets where id = $1',
      [runId],
    );
    expect(row).toEqual({ status: 'running', lease_owner: 'worker-a', lease_generation: 1 });
  });

  it('an instance whose clock runs an hour ahead claims a lease that lasts its length, not an hour more', async () => {
    const runId = await heldRun("now() - interval '1 second'");
    skew(HOUR_MS);
    const repository = new ChangeSetRepository(testApp.database.db);
    const claimed = await repository.leases.claim(runId, 'worker-b', 60_000);
    expect(claimed?.lease).toEqual({ id: runId, owner: 'worker-b', generation: 2 });
    if (!claimed) throw new Error('the lapsed lease is claimed');
    expect(await repository.leases.renew(claimed.lease, 60_000)).toBe(true);
    const [row] = await sql<{ seconds: number }>(
      'select extract(epoch from lease_until - now())::float as seconds from change_sets where id = $1',
      [runId],
    );
    expect(row?.seconds).toBeGreaterThan(50);
    expect(row?.seconds).toBeLessThanOrEqual(60);
  });

  it('an instance whose clock runs an hour behind keeps no lapsed lease: it cannot renew or write, and the job is recovered', async () => {
    const runId = await heldRun("now() + interval '60 seconds'");
    const repository = new ChangeSetRepository(testApp.database.db);
    const lease = { id: runId, owner: 'worker-a', generation: 1 };
    skew(-HOUR_MS);
    // The holder was paused past its lease (on the database's clock).
    await sql("update change_sets set lease_until = now() - interval '1 second' where id = $1", [runId]);
    expect(await repository.leases.renew(lease, 60_000)).toBe(false);
    expect(await repository.leases.write(lease, { error: 'late' })).toBe(false);
    expect(await testApp.jobs.changeSets.recoverOrphans(false)).toEqual({ requeued: 1, failed: 0 });
    const [row] = await sql<{ status: string; error: string | null }>(
      'select status, error from change_sets where id = $1',
      [runId],
    );
    expect(row).toEqual({ status: 'queued', error: null });
  });
});

describe('a change set whose worker lost its lease', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  beforeAll(async () => {
    // No workers: the test plays both of them.
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];

  it('records no outcome once another worker took the run over; the new holder reconciles what the old one left, and every recorded outcome is what the platform holds', async () => {
    const sandbox = testApp.sandbox;
    const group = customer.groups[0];
    if (!sandbox || !group) throw new Error('the sandbox customer has account groups');
    const templates = Array.from({ length: 30 }, (_, index) => bgpTemplate(`Fenced ${index}`));
    const started = await startBulkTests(tam, customer, [group], templates);
    expect(started.statusCode, started.body).toBe(202);
    const runId = started.json<{ id: string }>().id;
    // Slow answers, so the takeover lands while items are on their way.
    const scenario = sandbox.platform.scenario;
    sandbox.platform.setScenario({ ...scenario, latencyMs: 300 });
    const onPlatform = () => sandbox.platform.world.tests.filter((test) => test.testName.startsWith('Fenced ')).length;

    const first = testApp.jobs.changeSets.run(runId);
    await vi.waitFor(
      async () => {
        const [row] = await sql<{ done: number }>(
          "select count(*)::int as done from change_set_items where run_id = $1 and status = 'done'",
          [runId],
        );
        expect(row?.done).toBeGreaterThanOrEqual(2);
      },
      { timeout: 30_000, interval: 20 },
    );
    // Another worker claims the run (a new generation), and what the items say at that moment is kept.
    const atTakeover = await sql<{ id: string; status: string }>(
      `with taken as (
         update change_sets set lease_generation = lease_generation + 1, lease_owner = 'worker-b',
           lease_until = now() + interval '60 seconds' where id = $1 returning id)
       select i.id, i.status from change_set_items i join taken on taken.id = i.run_id order by i.id`,
      [runId],
    );
    expect(atTakeover.some((item) => item.status === 'pending')).toBe(true);
    await first;

    // The old worker recorded nothing after the takeover: not its items' outcomes, not the run's end.
    expect(await sql('select id, status from change_set_items where run_id = $1 order by id', [runId])).toEqual(
      atTakeover,
    );
    const [run] = await sql<{ status: string; lease_owner: string }>(
      'select status, lease_owner from change_sets where id = $1',
      [runId],
    );
    expect(run).toEqual({ status: 'running', lease_owner: 'worker-b' });
    // ...and sent nothing it had not claimed before.
    const claimed = atTakeover.filter((item) => item.status !== 'pending').length;
    expect(onPlatform()).toBeLessThanOrEqual(claimed);

    // worker-b is gone in its turn; this worker takes the run over and finishes it.
    sandbox.platform.setScenario(scenario);
    await sql("update change_sets set lease_until = now() - interval '1 second' where id = $1", [runId]);
    await testApp.jobs.changeSets.run(runId);
    const items = await sql<{ status: string }>('select status from change_set_items where run_id = $1', [runId]);
    expect(items.map((item) => item.status)).toEqual(templates.map(() => 'done'));
    expect(onPlatform()).toBe(templates.length);
  });

  it('sends none of the writes that waited for their rate slot when another worker took the run over meanwhile', async () => {
    const sandbox = testApp.sandbox;
    const group = customer.groups[0];
    if (!sandbox || !group) throw new Error('the sandbox customer has account groups');
    const templates = Array.from({ length: 12 }, (_, index) => bgpTemplate(`Slot ${index}`));
    const started = await startBulkTests(tam, customer, [group], templates);
    expect(started.statusCode, started.body).toBe(202);
    const runId = started.json<{ id: string }>().id;
    // A small budget: the run's writes spend each window at once, then wait at their slot for the next.
    const limit = 4;
    const scenario = sandbox.platform.scenario;
    sandbox.platform.setScenario({ ...scenario, rateLimitPerMinute: limit, windowMs: 5_000 });
    const orgId = customer.organization.id;
    const onPlatform = () => sandbox.platform.world.tests.filter((test) => test.testName.startsWith('Slot ')).length;

    const first = testApp.jobs.changeSets.run(runId);
    // A window full of creations, each answered: nothing is on its way, the next writes wait at their slot.
    await vi.waitFor(
      () => {
        const window = sandbox.platform.history.findLast((entry) => entry.orgId === orgId);
        const answered = sandbox.platform.calls.filter(
          (call) => call.orgId === orgId && call.at >= (window?.startedAt ?? Infinity),
        );
        expect(window?.count).toBe(limit);
        expect(answered).toHaveLength(limit);
        expect(answered.some((call) => call.method === 'POST')).toBe(true);
      },
      { timeout: 30_000, interval: 10 },
    );
    await sql(
      `update change_sets set lease_generation = lease_generation + 1, lease_owner = 'worker-b',
         lease_until = now() + interval '60 seconds' where id = $1`,
      [runId],
    );
    const atTakeover = onPlatform();
    expect(atTakeover).toBeLessThan(templates.length);
    await first;
    // The window turned while the old worker still ran: its waiting writes found the run taken and stayed unsent.
    expect(onPlatform()).toBe(atTakeover);

    // This worker takes the run over in its turn and finishes it: every test once.
    sandbox.platform.setScenario(scenario);
    await sql("update change_sets set lease_until = now() - interval '1 second' where id = $1", [runId]);
    await testApp.jobs.changeSets.run(runId);
    const items = await sql<{ status: string }>('select status from change_set_items where run_id = $1', [runId]);
    expect(items.map((item) => item.status)).toEqual(templates.map(() => 'done'));
    expect(onPlatform()).toBe(templates.length);
  });

  it("writes a report's files only under the current claim: a former holder's are refused, nothing written", async () => {
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const [report] = await sql<{ id: string }>(
      `insert into report_requests (user_id, kind, organization_id, organization_name, account_groups, options, status)
       values ($1, 'alerts-config', '9000', 'Acme', '[]', '{}', 'queued') returning id`,
      [tam?.id],
    );
    const reportId = report?.id ?? '';
    const repository = new ReportsRepository(testApp.database.db);
    const old = await repository.leases.claim(reportId, 'worker-a');
    await sql("update report_requests set lease_until = now() - interval '1 second' where id = $1", [reportId]);
    const current = await repository.leases.claim(reportId, 'worker-b');
    if (!old || !current) throw new Error('both claims are needed');
    const file = (filename: string) => ({ filename, contentType: 'text/csv', content: Buffer.from('a,b\n') });
    const stale = new HeldJob(repository.leases, old.lease, old.row);
    await expect(
      stale.fenced((tx) => repository.replaceArtifacts(reportId, [file('late.csv')], tx)),
    ).rejects.toBeInstanceOf(LeaseLostError);
    const holder = new HeldJob(repository.leases, current.lease, current.row);
    await holder.fenced((tx) => repository.replaceArtifacts(reportId, [file('report.csv')], tx));
    const files = await sql<{ filename: string }>('select filename from report_artifacts where report_id = $1', [
      reportId,
    ]);
    expect(files).toEqual([{ filename: 'report.csv' }]);
  });
});
