import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_PAUSE_REASONS, type Watch, type WatchRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const START = new Date('2026-11-27T10:00:00Z');
const DAY_MS = 86_400_000;

// Issue 55: every run checks the consent before its first call, and a refused token costs one call, not twelve.
describe('Account Watch consent: expiry before every run, one call for a revoked token, a named contact', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let now = START;

  beforeAll(async () => {
    // One run of the organization at a time: a run can be held queued behind another.
    testApp = await createTestApp('pglite', { WATCH_RUNS_PER_ORGANIZATION: '1' }, { clock: () => now });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const consent = { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 };
  const create = (overrides: Record<string, unknown> = {}) =>
    tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        token: customer.token,
        organization: customer.organization,
        consent,
        accountGroups: customer.groups.slice(0, 1),
        runs: 'both',
        schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
        channel: { kind: 'owner' },
        speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
        ...overrides,
      },
    });
  const made = async (overrides: Record<string, unknown> = {}) => {
    const response = await create(overrides);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Watch>();
  };
  const runNow = (watch: Watch) => tam.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` });
  const runOf = (watch: Watch, id: string) =>
    untilFinished(async () => {
      const { runs } = (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>();
      const run = runs.find((candidate) => candidate.id === id);
      if (!run) throw new Error('the run is not listed yet');
      return run;
    }, 120_000);
  const callsOf = (runId: string) =>
    sql<{ path: string; status: number }>(
      "select detail->>'path' as path, (detail->>'status')::int as status from audit_log where action = 'watch.platformCall' and detail->>'watchRunId' = $1",
      [runId],
    );
  const partsOf = async (runId: string) =>
    (
      await sql<{ n: number }>(
        `select (select count(*) from report_requests where watch_run_id = $1)::int
              + (select count(*) from backups where watch_run_id = $1)::int as n`,
        [runId],
      )
    )[0]?.n;

  it('refuses a contact that is not a name, and an email that is not one', async () => {
    for (const contactName of ['ok', 'approved', 'Dana', 'dana@acme.example', '12345 678', '- -']) {
      const refused = await create({ consent: { ...consent, contactName } });
      expect(refused.statusCode, contactName).toBe(400);
      expect(refused.body).toContain('The contact’s full name (first and last), as letters');
    }
    const badEmail = await create({ consent: { ...consent, contactEmail: 'Dana Admin' } });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.body).toContain('The contact’s email address');
    // Names as people have them.
    for (const contactName of ['Zoë O’Brien-Smith', 'Jean-Luc de la Tour', '李小龙']) {
      const watch = await made({ consent: { ...consent, contactName } });
      expect(watch.token?.contactName).toBe(contactName);
      await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
    }
  });

  it('"Run now" on a consent past its expiry refuses, erases the token and pauses the watch', async () => {
    const watch = await made({ consent: { ...consent, days: 1 } });
    // The scheduler's minute has not come yet: "Run now" itself finds the consent over.
    now = new Date(now.getTime() + 2 * DAY_MS);
    const refused = await runNow(watch);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(WATCH_PAUSE_REASONS.expired);
    const paused = (await tam.request({ url: `/api/watches/${watch.id}` })).json<Watch>();
    expect(paused).toMatchObject({ status: 'paused', token: null, pausedReason: WATCH_PAUSE_REASONS.expired });
    expect(await sql('select id from watch_runs where watch_id = $1', [watch.id])).toEqual([]);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('a queued run whose consent expired while it waited makes no call: it ends, and the watch pauses', async () => {
    await testApp.app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { latencyMs: 80 } });
    const long = await made();
    const short = await made({ consent: { ...consent, days: 1 } });
    // The long watch's run holds the organization's one turn; the short one's waits behind it.
    const first = (await runNow(long)).json<WatchRun>();
    const waiting = (await runNow(short)).json<WatchRun>();
    expect(waiting.status).toBe('queued');
    // Its consent ends while it waits (before the scheduler's minute could see it).
    now = new Date(now.getTime() + 2 * DAY_MS);
    expect((await runOf(long, first.id)).status).toBe('done');
    const ended = await runOf(short, waiting.id);
    expect(ended).toMatchObject({ status: 'failed', error: WATCH_PAUSE_REASONS.expired });
    expect(await callsOf(waiting.id)).toEqual([]);
    expect(await partsOf(waiting.id)).toBe(0);
    const paused = (await tam.request({ url: `/api/watches/${short.id}` })).json<Watch>();
    expect(paused).toMatchObject({ status: 'paused', token: null });
    await testApp.app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { latencyMs: 0 } });
    for (const watch of [long, short]) await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('a revoked token ends the run at its first call: one refused call, no health check nor backup started', async () => {
    const watch = await made();
    await testApp.app.inject({
      method: 'POST',
      url: '/sandbox/te/token-revocations',
      payload: { token: customer.token },
    });
    const started = await runNow(watch);
    expect(started.statusCode, started.body).toBe(202);
    const run = await runOf(watch, started.json<WatchRun>().id);
    expect(run).toMatchObject({ status: 'failed', error: WATCH_PAUSE_REASONS.refused });
    expect(await callsOf(run.id)).toEqual([{ path: expect.stringMatching(/account-groups/), status: 401 }]);
    expect(await partsOf(run.id)).toBe(0);
    const paused = (await tam.request({ url: `/api/watches/${watch.id}` })).json<Watch>();
    expect(paused).toMatchObject({ status: 'paused', token: null, pausedReason: WATCH_PAUSE_REASONS.refused });
  });
});
