import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReportRequest, Watch, WatchRun } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import { watchRuns } from '../src/db/schema.js';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { watchRequest } from './support/watches.js';

/** Monday 2026-11-30 07:00 UTC; the watches run daily at 07:30 UTC, the last of November first. */
const START = new Date('2026-11-30T07:00:00Z');

/**
 * A watch's duty of a monthly review pack (issue 60): the first run that ends in a new month requests the previous
 * month's pack, once, kept in My Reports; a second run that month, a retried run and two workers taking it request
 * none more, and a watch without the duty none.
 */
describe('a watch builds last month’s review pack on its first run of a month', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let now = START;
  let withDuty: Watch;
  let without: Watch;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0' }, { clock: () => now });
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    // Over different account groups: the pack says whose it is.
    const create = async (monthlyReviewPack: boolean, group: number) => {
      const created = await tam.request({
        method: 'POST',
        url: '/api/watches',
        payload: watchRequest(customer, {
          runs: 'health',
          monthlyReviewPack,
          accountGroups: customer.groups.slice(group, group + 1),
        }),
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<Watch>();
    };
    withDuty = await create(true, 0);
    without = await create(false, 1);
  });
  afterAll(async () => {
    await testApp.close();
  });
  afterEach(async () => {
    await vi.waitFor(
      async () => {
        const all = [...(await runsOf(withDuty)), ...(await runsOf(without))];
        expect(all.filter((run) => run.status === 'queued' || run.status === 'running')).toEqual([]);
      },
      { timeout: 110_000, interval: 250 },
    );
  });

  const runsOf = async (watch: Watch) =>
    (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
  const packs = async () =>
    (await tam.request({ url: '/api/reports' }))
      .json<{ reports: ReportRequest[] }>()
      .reports.filter((report) => report.kind === 'review-pack');
  /** Moves the clock to `at`, makes the runs due by then, and waits for each watch's `count`th run to end, done. */
  const scheduledRunsAt = async (at: string, count: number) => {
    now = new Date(at);
    expect(await testApp.jobs.watchRuns.schedule()).toBe(2);
    for (const watch of [withDuty, without]) {
      const run = await untilFinished(async () => {
        const runs = await runsOf(watch);
        expect(runs).toHaveLength(count);
        return runs[0] ?? { status: 'none' };
      }, 300_000);
      expect(run.status, 'error' in run ? (run.error ?? '') : '').toBe('done');
    }
  };

  it('says the duty on the watch, and refuses it on a watch that makes backups only', async () => {
    expect(withDuty.monthlyReviewPack).toBe(true);
    expect(without.monthlyReviewPack).toBe(false);
    const refused = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(customer, { runs: 'backup', monthlyReviewPack: true }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(
      'A monthly review pack is built from the watch’s health checks: let the watch run the health check.',
    );
    // An edit that leaves the duty out keeps it.
    const { accountGroups, runs, channel, speakWhen, schedule } = withDuty;
    const edited = await tam.request({
      method: 'PUT',
      url: `/api/watches/${withDuty.id}`,
      payload: { accountGroups, runs, channel, speakWhen, schedule },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Watch>().monthlyReviewPack).toBe(true);
  });

  it('requests no pack on a run in the month the watch started', async () => {
    await scheduledRunsAt('2026-11-30T07:30:00Z', 1);
    expect(await packs()).toEqual([]);
  });

  it('requests exactly one pack of the previous month on the first run of a new month, kept in My Reports', async () => {
    await scheduledRunsAt('2026-12-01T07:30:00Z', 2);
    const requested = await packs();
    expect(requested).toHaveLength(1);
    const [pack] = requested;
    expect(pack).toMatchObject({
      organizationName: customer.organization.name,
      accountGroups: withDuty.accountGroups,
      requestedBy: 'tam@demo.local',
      options: { period: { kind: 'month', from: '2026-11-01', to: '2026-11-30' }, cutOff: '2026-12-01T07:30:00.000Z' },
    });
    // It is built as any pack is, and sent to its owner's Webex.
    const built = await untilFinished(
      async () => (await tam.request({ url: `/api/reports/${pack?.id}` })).json<ReportRequest>(),
      300_000,
    );
    expect(built.status, built.error ?? '').toBe('done');
    expect(built.artifacts.map((artifact) => artifact.filename).some((name) => name.endsWith('.pptx'))).toBe(true);
    await vi.waitFor(
      async () =>
        expect((await tam.request({ url: `/api/reports/${pack?.id}` })).json<ReportRequest>().delivery.status).toBe(
          'delivered',
        ),
      { timeout: 30_000, interval: 250 },
    );
  });

  it('requests none on a second run that month, nor when a run is retried or taken by two workers', async () => {
    now = new Date('2026-12-01T09:00:00Z');
    const started = await tam.request({ method: 'POST', url: `/api/watches/${withDuty.id}/runs` });
    expect(started.statusCode, started.body).toBe(202);
    const second = await untilFinished(async () => {
      const runs = await runsOf(withDuty);
      expect(runs).toHaveLength(3);
      return runs[0] ?? { status: 'none' };
    }, 300_000);
    expect(second.status).toBe('done');
    expect(await packs()).toHaveLength(1);

    // The month's first run taken up again (its worker lost), by two workers at once.
    const first = (await runsOf(withDuty)).find((run) => run.dueAt === '2026-12-01T07:30:00.000Z');
    if (!first) throw new Error('no run of 1 December');
    await testApp.database.db
      .update(watchRuns)
      .set({ status: 'queued', finishedAt: null, leaseUntil: null })
      .where(eq(watchRuns.id, first.id));
    await Promise.all([testApp.jobs.watchRuns.run(first.id), testApp.jobs.watchRuns.run(first.id)]);
    const again = (await runsOf(withDuty)).find((run) => run.id === first.id);
    expect(again?.status).toBe('done');
    expect(await packs()).toHaveLength(1);
  });
});
