import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeSetRepository } from '../src/core/change-sets/repository.js';
import { createTestApp, type TestApp } from './build-test-app.js';
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
