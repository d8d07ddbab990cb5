import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlatformError, PlatformHttp } from '@ce/platform-client';
import { ChangeSetRepository } from '../src/core/change-sets/repository.js';
import { ExclusiveLocks } from '../src/core/exclusive-locks.js';
import { injectFetch } from '../src/adapters/inject-fetch.js';
import { SharedRateBudgets } from '../src/core/rate-budget.js';
import { createTestApp, TestClient, type TestApp } from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';

// Several instances on one PostgreSQL database: what must hold across them lives in the database.
const onPostgres = postgresRuns('Multi-instance tests');

describe.runIf(onPostgres)('two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    // The same token key on both, as the deployment guide asks: either may open what the other sealed.
    const env = {
      PUBLIC_RATE_LIMIT_PER_MINUTE: '4',
      WORKERS_ENABLED: 'false',
      REPORTS_KEY: 'q2Qe4nGm0mO3cWb0w0F7GQ3S9lZ3v4w0cD0s7cJ8m3E=',
    };
    first = await createTestApp('postgres', env);
    second = await createTestApp('postgres', env, { sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('share one per-address limit on sign-in: two instances never allow twice the limit', async () => {
    const address = '198.51.100.77';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const instance = attempt % 2 === 0 ? first : second;
      const response = await new TestClient(instance.app).request({
        method: 'POST',
        url: '/api/session',
        payload: { email: `nobody-${attempt}@demo.local`, password: 'wrong-password' },
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    // Four answers in the minute, whichever instance each reached; then the limit, on both.
    expect(statuses.slice(0, 4).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Another address is not held back.
    const other = await new TestClient(second.app).request({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'nobody@demo.local', password: 'wrong-password' },
      remoteAddress: '198.51.100.78',
    });
    expect(other.statusCode).not.toBe(429);
  });

  it('hold a "one at a time" lock for every instance, released by its holder, freed when it expires', async () => {
    const onFirst = new ExclusiveLocks(first.database.db);
    const onSecond = new ExclusiveLocks(second.database.db);
    const name = 'tracker.create:user-1';
    expect(await onFirst.acquire(name, 'request-a', 60_000)).toBe(true);
    expect(await onSecond.acquire(name, 'request-b', 60_000)).toBe(false);
    // Only the holder releases it.
    await onSecond.release(name, 'request-b');
    expect(await onSecond.acquire(name, 'request-b', 60_000)).toBe(false);
    await onFirst.release(name, 'request-a');
    expect(await onSecond.acquire(name, 'request-b', 50)).toBe(true);
    // A holder that died: the lock frees itself when it expires.
    await vi.waitFor(async () => expect(await onFirst.acquire(name, 'request-c', 60_000)).toBe(true), {
      timeout: 5_000,
      interval: 50,
    });
  });

  it("recover a dead worker's report once when both recover at the same moment", async () => {
    const sql = async <T>(text: string, values: unknown[] = []) =>
      (await first.database.sql.executeSql(text, values)).rows as T[];
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const tokenId = await first.tokens.seal('token-of-a-report');
    const [report] = await sql<{ id: string }>(
      `insert into report_requests (user_id, kind, organization_id, organization_name, account_groups, options, status,
         token_id, started_at, lease_until)
       values ($1, 'alerts-config', '9000', 'Acme', '[]', '{}', 'running', $2, now(), now() - interval '5 minutes')
       returning id`,
      [tam?.id, tokenId],
    );
    const [onFirst, onSecond] = await Promise.all([
      first.jobs.reports.recoverOrphans(false),
      second.jobs.reports.recoverOrphans(false),
    ]);
    expect(onFirst.requeued + onSecond.requeued).toBe(1);
    expect(onFirst.failed + onSecond.failed).toBe(0);
    const [row] = await sql<{ status: string; job_id: string | null }>(
      'select status, job_id from report_requests where id = $1',
      [report?.id],
    );
    expect(row?.status).toBe('queued');
    expect(row?.job_id).not.toBeNull();
    // Again, at once: nothing left to recover, nothing changes.
    const again = await Promise.all([
      first.jobs.reports.recoverOrphans(false),
      second.jobs.reports.recoverOrphans(false),
    ]);
    expect(again.map((result) => result.requeued + result.failed)).toEqual([0, 0]);
  });

  it('fence a bulk run: a worker that lost its lease can neither renew it nor send an item; of two holders, one sends', async () => {
    const sql = async <T>(text: string, values: unknown[] = []) =>
      (await first.database.sql.executeSql(text, values)).rows as T[];
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const [run] = await sql<{ id: string }>(
      `insert into change_sets (user_id, kind, organization_id, organization_name, input, status)
       values ($1, 'tests', '9000', 'Acme', '{}', 'queued') returning id`,
      [tam?.id],
    );
    const [item] = await sql<{ id: string }>(
      `insert into change_set_items (run_id, position, action, aid, account_group_name, subject, payload, status)
       values ($1, 0, 'create', '1', 'Group', 'Test', '{}', 'pending') returning id`,
      [run?.id],
    );
    const runId = run?.id ?? '';
    const onFirst = new ChangeSetRepository(first.database.db);
    const onSecond = new ChangeSetRepository(second.database.db);
    const old = await onFirst.leases.claim(runId, 'worker-a');
    expect(old?.lease.generation).toBe(1);
    // While the lease holds, nobody else takes the run.
    expect(await onSecond.leases.claim(runId, 'worker-b')).toBeUndefined();
    // worker-a stalls past its lease; worker-b takes the run over.
    await sql("update change_sets set lease_until = now() - interval '1 second' where id = $1", [runId]);
    const current = await onSecond.leases.claim(runId, 'worker-b');
    expect(current?.lease).toEqual({ id: runId, owner: 'worker-b', generation: 2 });
    if (!old || !current) throw new Error('both claims are needed');
    expect(await onFirst.leases.renew(old.lease)).toBe(false);
    expect(await onFirst.leases.write(old.lease, { status: 'done' })).toBe(false);
    expect(await onFirst.claimItem(item?.id ?? '', old.lease)).toBe(false);
    // The holder's claims race each other from both connections: exactly one wins.
    const claims = await Promise.all(
      [onFirst, onSecond, onFirst, onSecond].map((repository) => repository.claimItem(item?.id ?? '', current.lease)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await onSecond.leases.renew(current.lease)).toBe(true);
    const [row] = await sql<{ status: string }>('select status from change_sets where id = $1', [runId]);
    expect(row?.status).toBe('running');
  });

  it("keep two processes' platform calls within one organization's budget: no 429, every window at or under the limit", async () => {
    const sandbox = first.sandbox;
    if (!sandbox) throw new Error('the test app runs the embedded sandbox');
    const limit = 30;
    sandbox.platform.setScenario({ ...sandbox.platform.scenario, rateLimitPerMinute: limit, windowMs: 2_000 });
    const [token] = sandbox.platform.world.tokens;
    const orgId = token?.orgId ?? '';
    const origin = 'http://sandbox.budget';
    // Two clients, each with its own connection to the shared budget, as two processes would have.
    const clients = [first, second].map(
      (instance) =>
        new PlatformHttp({
          baseUrl: `${origin}/sandbox/te/v7`,
          fetch: injectFetch(first.app, origin),
          limiters: new SharedRateBudgets(instance.database.db),
        }),
    );
    const callsEach = 50;
    const refused: unknown[] = [];
    await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: callsEach }, () =>
          client
            .call({ token: token?.token ?? '', organizationId: orgId }, '/account-groups')
            .catch((error: unknown) => refused.push(error)),
        ),
      ),
    );
    expect(refused.filter((error) => error instanceof PlatformError)).toEqual([]);
    const counts = sandbox.platform.organizations.get(orgId);
    // Every call accepted the first time it was sent: none answered 429.
    expect(counts).toEqual({ accepted: 2 * callsEach, refused429: 0 });
    const windows = sandbox.platform.history.filter((window) => window.orgId === orgId);
    expect(windows.length).toBeGreaterThanOrEqual(Math.ceil((2 * callsEach) / limit));
    expect(windows.every((window) => window.count <= limit)).toBe(true);
  }, 30_000);
});
