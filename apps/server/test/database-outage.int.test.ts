import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import { DATABASE_FAULT_MESSAGES } from '@ce/contract';
import { createTestApp, sandboxCustomer, signedInClient, untilFinished } from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';

// The toolkit's database going away under a running instance: a person is told in words to try again (503 with
// Retry-After), never "Internal server error", and the same instance serves again by itself once it is back.
const onPostgres = postgresRuns('The database-outage test');

/** Runs `statement` on the server's own database as its administrator (the app's database is the one to cut off). */
async function asAdministrator(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

describe.runIf(onPostgres)('a database away for a while', () => {
  it('answers 503 in words with Retry-After while it is away, and serves again by itself when it returns', async () => {
    const testApp = await createTestApp('postgres', { WORKERS_ENABLED: 'false' });
    const name = new URL(testApp.target.kind === 'postgres' ? testApp.target.url : '').pathname.slice(1);
    try {
      const tam = await signedInClient(testApp.app, 'tam@demo.local');
      expect((await tam.request({ method: 'GET', url: '/api/reports' })).statusCode).toBe(200);

      // Away: no new connection is let in, and every one the instance holds is ended by the server.
      await asAdministrator(`alter database ${name} with allow_connections false`);
      await asAdministrator(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
      for (const url of ['/api/reports', '/api/notifications', '/api/session']) {
        const response = await tam.request({ method: 'GET', url });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after']).toBe('60');
        expect(response.json()).toMatchObject({
          error: { code: 'database_unavailable', message: DATABASE_FAULT_MESSAGES.unreachable },
        });
      }
      const ready = await testApp.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ database: 'unreachable' });

      await asAdministrator(`alter database ${name} with allow_connections true`);
      await vi.waitFor(
        async () => expect((await tam.request({ method: 'GET', url: '/api/reports' })).statusCode).toBe(200),
        { timeout: 20_000, interval: 200 },
      );
      expect((await testApp.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await asAdministrator(`alter database ${name} with allow_connections true`).catch(() => undefined);
      await testApp.close();
    }
  }, 90_000);

  it('hands a report it was writing back instead of failing it, and the report finishes once when it returns', async () => {
    const testApp = await createTestApp('postgres', { JOB_LEASE_MS: '4000' });
    const name = new URL(testApp.target.kind === 'postgres' ? testApp.target.url : '').pathname.slice(1);
    try {
      const tam = await signedInClient(testApp.app, 'tam@demo.local');
      const customer = await sandboxCustomer(testApp, tam);
      testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, latencyMs: 300 });
      const created = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'alerts-config',
          token: customer.token,
          organization: customer.organization,
          accountGroups: customer.groups,
          options: {},
        },
      });
      expect(created.statusCode).toBe(202);
      const id = created.json<{ id: string }>().id;
      const read = async () => (await tam.request({ method: 'GET', url: `/api/reports/${id}` })).json();
      await vi.waitFor(async () => expect(await read()).toMatchObject({ status: 'running' }), {
        timeout: 30_000,
        interval: 100,
      });

      await asAdministrator(`alter database ${name} with allow_connections false`);
      await asAdministrator(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
      // The job meets the outage at its next write and stops there, its row untouched.
      await vi.waitFor(
        () =>
          expect(
            testApp.logs.some((line) => /report (handed back: the database failed it|lease lost)/.test(line)),
          ).toBe(true),
        { timeout: 30_000, interval: 100 },
      );
      await asAdministrator(`alter database ${name} with allow_connections true`);
      testApp.sandbox?.platform.setScenario(DEFAULT_SCENARIO);

      // Not failed by the outage: once its lease has lapsed, the recovery sends it back and it finishes once.
      await vi.waitFor(async () => expect((await testApp.jobs.reports.recoverOrphans(false)).requeued).toBe(1), {
        timeout: 30_000,
        interval: 500,
      });
      const done = await untilFinished(read);
      expect(done).toMatchObject({ status: 'done', delivery: { status: 'delivered' } });
      const inbox = testApp.sandbox?.webex.messages.filter((message) => message.toPersonEmail === 'tam@demo.local');
      expect(inbox).toHaveLength(1);
    } finally {
      await asAdministrator(`alter database ${name} with allow_connections true`).catch(() => undefined);
      await testApp.close();
    }
  }, 120_000);
});
