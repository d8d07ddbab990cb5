import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Watch, WatchRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe('Account Watch guards: runs stop with the consent, one run at a time, waivers and edits within bounds', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let engineering: TestClient;
  let superUser: TestClient;
  let customer: SandboxCustomer;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    // Slow answers: a run is still working when it is revoked.
    await testApp.app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { latencyMs: 150 } });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string) => (await testApp.database.sql.executeSql(text, [])).rows as T[];
  const watchOf = async (client: TestClient, runs: string) => {
    const created = await client.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        token: customer.token,
        organization: customer.organization,
        consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
        accountGroups: customer.groups.slice(0, 2),
        runs,
        schedule: { cadence: 'daily', weekday: 3, time: '03:00', timeZone: 'UTC' },
        channel: { kind: 'owner' },
        speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<Watch>();
  };

  it('a revocation mid-run ends the run and its parts at once, and no copy of the token is left', async () => {
    const watch = await watchOf(tam, 'both');
    // A daily watch keeps no weekday, whatever was sent.
    expect(watch.schedule.weekday).toBeNull();
    const started = await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` });
    expect(started.statusCode).toBe(202);
    // One run at a time: a second "Run now" while it works is refused.
    const again = await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('A run of this watch is under way: its result comes first.');
    await vi.waitFor(
      async () => {
        const [parts] = await sql<{ n: number }>(
          "select count(*)::int as n from report_requests where watch_run_id is not null and status = 'running'",
        );
        expect(parts?.n).toBe(1);
      },
      { timeout: 30_000, interval: 50 },
    );
    const revoked = await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}/token` });
    expect(revoked.statusCode).toBe(200);
    const runs = (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
    expect(runs[0]).toMatchObject({ status: 'failed', error: 'The stored token was revoked.' });
    const parts = await sql<{ status: string; token_id: string | null }>(
      `select status, token_id from report_requests where watch_run_id is not null
       union all select status, token_id from backups where watch_run_id is not null`,
    );
    expect(parts.every((part) => part.status !== 'queued' && part.status !== 'running' && part.token_id === null)).toBe(
      true,
    );
    const [sealed] = await sql<{ n: number }>('select count(*)::int as n from sealed_tokens');
    expect(sealed?.n).toBe(0);
  });

  it("a Super User's edit cannot make a watch run what its owner's role does not", async () => {
    const watch = await watchOf(engineering, 'health');
    const { accountGroups, channel, speakWhen, schedule } = watch;
    const edited = await superUser.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}`,
      payload: { accountGroups, channel, speakWhen, schedule, runs: 'both' },
    });
    expect(edited.statusCode).toBe(409);
    expect(edited.json().error.message).toBe('Its owner’s role no longer runs what it runs.');
  });

  it('ends a waiver only for its author, a watch owner of the customer or a Super User; names are printable', async () => {
    const waiver = {
      organizationId: customer.organization.id,
      checkId: 'alerts-active',
      itemKey: null,
      reason: 'Known noisy check',
      days: 7,
    };
    const nul = await engineering.request({
      method: 'POST',
      url: '/api/watch-waivers',
      payload: { ...waiver, itemName: 'a\u0000b' },
    });
    expect(nul.statusCode).toBe(400);
    const created = await engineering.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver });
    expect(created.statusCode).toBe(201);
    const twice = await tam.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver });
    expect(twice.statusCode).toBe(409);
    // ProServ may run the check but neither wrote it nor watches this customer.
    const proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    const refused = await proserv.request({ method: 'DELETE', url: `/api/watch-waivers/${created.json().id}` });
    expect(refused.statusCode).toBe(403);
    // The owner of a watch over the customer may.
    const ended = await tam.request({ method: 'DELETE', url: `/api/watch-waivers/${created.json().id}` });
    expect(ended.statusCode).toBe(204);
  });
});
