import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReportRequest, Watch, WatchRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';

// Issue 56: every run due in a minute is made within it, whatever the count, each once, by the schedulers of every
// instance together; and the database's clock, not an instance's, judges due times and stamps what is stored.

const MINUTE_MS = 60_000;
/** Watches due in the same minute: more than two of the scheduler's batches, twelve times what it made a minute. */
const DUE = 1_200;

async function watchOf(tam: TestClient, customer: SandboxCustomer, runs: string): Promise<Watch> {
  const created = await tam.request({
    method: 'POST',
    url: '/api/watches',
    payload: {
      token: customer.token,
      organization: customer.organization,
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
      accountGroups: customer.groups.slice(0, 1),
      runs,
      schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<Watch>();
}

const sqlOf =
  (testApp: () => TestApp) =>
  async <T>(text: string, values: unknown[] = []): Promise<T[]> =>
    (await testApp().database.sql.executeSql(text, values)).rows as T[];

describe('the watch scheduler: every due run made at once, each once', () => {
  let testApp: TestApp;
  let template: Watch;
  const sql = sqlOf(() => testApp);

  beforeAll(async () => {
    // No workers: the test plays the schedulers, and the runs wait in the queue.
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    const tam = await signedInClient(testApp.app, 'tam@demo.local');
    template = await watchOf(tam, await sandboxCustomer(testApp, tam), 'both');
    // The same watch many times over (the caps count watches made through the API; these are the scheduler's load).
    await sql(
      `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel,
         speak_when, status, token_id, token_last4, token_stored_at, token_stored_by, consent_contact_name,
         consent_contact_email, token_expires_at, next_run_at)
       select user_id, organization_id, organization_name, account_groups, runs, schedule, channel, speak_when,
         status, token_id, token_last4, token_stored_at, token_stored_by, consent_contact_name, consent_contact_email,
         token_expires_at, next_run_at
       from watches, generate_series(2, $2) where id = $1`,
      [template.id, DUE],
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it(`makes the ${DUE} runs due in the same minute in one pass of two schedulers at once, each once`, async () => {
    const [due] = await sql<{ at: Date }>(
      "update watches set next_run_at = date_trunc('minute', now()) returning next_run_at as at",
    );
    const made = await Promise.all([testApp.jobs.watchRuns.schedule(), testApp.jobs.watchRuns.schedule()]);
    expect(made[0] + made[1]).toBe(DUE);
    const [runs] = await sql<{ made: number; watches: number; at_due: number }>(
      `select count(*)::int as made, count(distinct watch_id)::int as watches,
         count(*) filter (where due_at = $1 and trigger = 'schedule' and status = 'queued')::int as at_due
       from watch_runs`,
      [due?.at],
    );
    expect(runs).toEqual({ made: DUE, watches: DUE, at_due: DUE });
    // Each watch moved on to its next due time (tomorrow's 03:00), having run at this one.
    const [moved] = await sql<{ later: number; ran: number }>(
      `select count(*) filter (where next_run_at > now() and next_run_at <= now() + interval '1 day')::int as later,
         count(*) filter (where last_run_at = $1)::int as ran
       from watches`,
      [due?.at],
    );
    expect(moved).toEqual({ later: DUE, ran: DUE });
    expect(await testApp.jobs.watchRuns.schedule()).toBe(0);
  });

  it('sends the runs whose turn it is, and leaves the others to their turn rather than sending them as lost', async () => {
    // One organization: WATCH_RUNS_PER_ORGANIZATION (3) runs at once, the others wait for a run of theirs to end.
    const [sent] = await sql<{ sent: number }>('select count(*)::int as sent from watch_runs where job_id is not null');
    expect(sent?.sent).toBe(3);
    // The recovery (here as at the start of an instance on the embedded database: every queued run is looked at)
    // sends again only the runs in turn, not the 1,197 waiting for it.
    expect(await testApp.jobs.watchRuns.recoverOrphans(true)).toEqual({ requeued: 3, failed: 0 });
    const [after] = await sql<{ sent: number }>(
      'select count(*)::int as sent from watch_runs where job_id is not null',
    );
    expect(after?.sent).toBe(3);
  });
});

// The database's clock is another process's here (PGlite runs on this process's clock, so it cannot be skewed apart).
const onPostgres = postgresRuns('Watch scheduler clock tests');

describe.runIf(onPostgres)("an instance whose clock runs 10 minutes ahead of the database's", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  const sql = sqlOf(() => testApp);

  beforeAll(async () => {
    testApp = await createTestApp('postgres', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await testApp?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** This process's clock, 10 minutes ahead of the database's. */
  const skewAhead = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * MINUTE_MS);
  };
  const databaseNow = async () => (await sql<{ now: Date }>('select now() as now'))[0]?.now.getTime() ?? NaN;
  /** How far `at` is from the database's clock now, in seconds. */
  const offDatabase = async (at: string | null) => Math.abs(Date.parse(at ?? '') - (await databaseNow())) / 1000;

  it('makes no run before its due time on the database clock, and stores its times on that clock', async () => {
    const watch = await watchOf(tam, customer, 'health');
    await sql("update watches set next_run_at = date_trunc('second', now()) + interval '5 minutes' where id = $1", [
      watch.id,
    ]);
    skewAhead();
    // Due in five minutes: this instance's clock says it is five minutes past, the database's clock says not yet.
    expect(await testApp.jobs.watchRuns.schedule()).toBe(0);
    expect(await sql('select id from watch_runs where watch_id = $1', [watch.id])).toEqual([]);

    await sql("update watches set next_run_at = date_trunc('second', now()) - interval '1 second' where id = $1", [
      watch.id,
    ]);
    expect(await testApp.jobs.watchRuns.schedule()).toBe(1);
    // The watch is paused (as its owner might) before the run starts: the run ends there, failed, on this instance.
    await sql("update watches set status = 'paused' where id = $1", [watch.id]);
    const [made] = await sql<{ id: string }>('select id from watch_runs where watch_id = $1', [watch.id]);
    await testApp.jobs.watchRuns.run(made?.id ?? '');
    const runs = (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run?.status).toBe('failed');
    // Its end and its start are the database's times, not ten minutes ahead.
    expect(await offDatabase(run?.finishedAt ?? null)).toBeLessThan(60);
    expect(await offDatabase(run?.createdAt ?? null)).toBeLessThan(60);
  });

  it("stamps a report's end with the database's time", async () => {
    skewAhead();
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'alerts-config',
        token: customer.token,
        organization: customer.organization,
        accountGroups: customer.groups.slice(0, 1),
        options: {},
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const { id } = created.json<{ id: string }>();
    await testApp.jobs.reports.run(id);
    const report = (await tam.request({ url: `/api/reports/${id}` })).json<ReportRequest>();
    expect(report.status).toBe('done');
    expect(await offDatabase(report.finishedAt)).toBeLessThan(60);
    expect(await offDatabase(report.createdAt)).toBeLessThan(60);
  });
});
