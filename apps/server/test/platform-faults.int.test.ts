import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkRun, ReportRequest } from '@ce/contract';
import {
  bgpTemplate,
  createTestApp,
  untilFinished,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// Reads are idempotent: under 5xx answers and timeouts they are retried within a time budget, and a
// report resumes from what it already read. Writes are never repeated blindly.
describe('reports and bulk runs while the platform fails some calls', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let token: string;
  let organization: { id: string; name: string };
  let groups: { aid: string; accountGroupName: string }[];

  beforeAll(async () => {
    // A short client timeout so hung calls cost little (not so short that a busy CI machine's answers miss it: at
    // 400 ms a creation timed out there); a limit high enough not to be what is tested.
    testApp = await createTestApp('pglite', { PLATFORM_TIMEOUT_MS: '1000', SANDBOX_RATE_LIMIT: '100000' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    token = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const listed = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } })).json()
      .accountGroups;
    organization = { id: listed[0].organizationId, name: listed[0].organizationName };
    groups = listed.slice(0, 2).map((group: { aid: string; accountGroupName: string }) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
    }));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const platform = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform;
  };
  const scenario = (changes: Record<string, unknown>) => platform().setScenario({ ...platform().scenario, ...changes });

  /** Every cell of every sheet, but the line that says when the workbook was generated. */
  async function cellsOf(report: ReportRequest): Promise<unknown> {
    const xlsx = report.artifacts.find((artifact) => artifact.filename.endsWith('.xlsx'));
    const file = await tam.request({ method: 'GET', url: `/api/reports/${report.id}/artifacts/${xlsx?.id}` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    return workbook.worksheets.map((sheet) => ({
      sheet: sheet.name,
      rows: sheet.getSheetValues().filter((row) => !JSON.stringify(row ?? []).includes(', generated ')),
    }));
  }

  /** Asks for `count` alerts reports at once and returns each one's workbook once all are finished. */
  async function alertsReports(count: number): Promise<unknown[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      const created = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: { kind: 'alerts-config', token, organization, accountGroups: groups, options: {} },
      });
      expect(created.statusCode, created.body).toBe(202);
      ids.push(created.json().id);
    }
    const reports: ReportRequest[] = [];
    for (const id of ids) {
      reports.push(
        await untilFinished(
          async () => (await tam.request({ method: 'GET', url: `/api/reports/${id}` })).json<ReportRequest>(),
          240_000,
        ),
      );
    }
    expect(reports.map((report) => [report.status, report.error])).toEqual(ids.map(() => ['done', null]));
    return Promise.all(reports.map(cellsOf));
  }

  it('completes ten alerts reports under 20% 500s and ten under 10% timeouts, each as a fault-free run', async () => {
    const [faultFree] = await alertsReports(1);

    platform().calls.length = 0;
    scenario({ errorRate: 0.2, errorStatus: 500 });
    const under500s = await alertsReports(10);
    expect(platform().calls.filter((call) => call.status === 500).length).toBeGreaterThan(5);
    for (const cells of under500s) expect(cells).toEqual(faultFree);

    scenario({ errorRate: 0, timeoutRate: 0.1, hangMs: 2_500 });
    const underTimeouts = await alertsReports(10);
    for (const cells of underTimeouts) expect(cells).toEqual(faultFree);
    scenario({ timeoutRate: 0 });
  }, 600_000);

  it('creates each test of a bulk run exactly once while 20% of the reads fail with 500', async () => {
    const allGroups = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } }))
      .json()
      .accountGroups.map((group: { aid: string; accountGroupName: string }) => ({
        aid: group.aid,
        accountGroupName: group.accountGroupName,
      }));
    scenario({ errorRate: 0.2, errorStatus: 500, errorMethod: 'GET' });
    platform().calls.length = 0;
    // Three runs over every group (about 13 reads each), so that reads surely fail along the way.
    for (const round of ['A', 'B', 'C']) {
      const names = [`Faulty reads ${round}1`, `Faulty reads ${round}2`];
      const created = await tam.request({
        method: 'POST',
        url: '/api/bulk/runs',
        payload: {
          kind: 'tests',
          token,
          organization,
          accountGroups: allGroups,
          templates: names.map((name) => bgpTemplate(name, '198.51.100.0/24')),
        },
      });
      expect(created.statusCode, created.body).toBe(202);
      const run = await untilFinished(
        async () => (await tam.request({ method: 'GET', url: `/api/bulk/runs/${created.json().id}` })).json<BulkRun>(),
        120_000,
      );
      expect(run.status).toBe('done');
      const outcomes = run.items.map((item) => [item.subject, item.status, item.note, item.error]);
      expect(run.totals, JSON.stringify(outcomes)).toMatchObject({ total: 12, done: 12, failed: 0 });
      for (const group of allGroups) {
        const inGroup = platform().world.tests.filter(
          (test) => test.aid === group.aid && names.includes(test.testName),
        );
        expect(inGroup.map((test) => test.testName).sort()).toEqual(names);
      }
    }
    scenario({ errorRate: 0, errorMethod: '' });
    expect(platform().calls.filter((call) => call.method === 'GET' && call.status === 500).length).toBeGreaterThan(0);
    // Every creation was sent once and accepted once: none repeated, none lost.
    const creations = platform().calls.filter((call) => call.method === 'POST' && call.path.startsWith('/tests/'));
    expect(creations.map((call) => call.status)).toEqual(Array.from({ length: 36 }, () => 201));
  }, 180_000);
});

describe('a report stopped by a platform fault', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // No workers (the test runs the job itself) and no retry budget: the first failed read stops the job.
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false', PLATFORM_RETRY_BUDGET_MS: '1' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('goes back to the queue with its token, then resumes from what it had read', async () => {
    const platform = testApp.sandbox?.platform;
    if (!platform) throw new Error('the sandbox is mounted in tests');
    const tam = await signedInClient(testApp.app, 'tam@demo.local');
    const token = platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const listed = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } })).json()
      .accountGroups;
    const request = async () => {
      const created = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'alerts-config',
          token,
          organization: { id: listed[0].organizationId, name: listed[0].organizationName },
          accountGroups: listed.slice(0, 2).map((group: { aid: string; accountGroupName: string }) => ({
            aid: group.aid,
            accountGroupName: group.accountGroupName,
          })),
          options: {},
        },
      });
      return created.json().id as string;
    };
    const sql = async <T>(text: string, values: unknown[]) =>
      (await testApp.database.sql.executeSql(text, values)).rows as T[];
    const readsOf = async (id: string) =>
      (await sql<{ n: number }>('select count(*)::int as n from report_reads where report_id = $1', [id]))[0]?.n;

    // How many reads a report takes when nothing fails.
    const reference = await request();
    let before = platform.calls.length;
    await testApp.jobs.reports.run(reference);
    const readsInAll = platform.calls.length - before;
    expect(readsInAll).toBeGreaterThan(5);

    // The platform goes down after the job's 5th read.
    const id = await request();
    const record = platform.recordCall.bind(platform);
    let seen = 0;
    platform.recordCall = (call) => {
      record(call);
      if (++seen === 5) platform.setScenario({ ...platform.scenario, down: true });
    };
    await testApp.jobs.reports.run(id);
    platform.recordCall = record;
    platform.setScenario({ ...platform.scenario, down: false });
    const [paused] = await sql<{ status: string; token_id: string | null; attempts: number }>(
      'select status, token_id, attempts from report_requests where id = $1',
      [id],
    );
    expect(paused).toMatchObject({ status: 'queued', attempts: 1 });
    expect(paused?.token_id).not.toBeNull();
    // Reads already under way when it went down may have finished too.
    const kept = (await readsOf(id)) ?? 0;
    expect(kept).toBeGreaterThanOrEqual(5);
    expect(kept).toBeLessThan(readsInAll);

    before = platform.calls.length;
    await testApp.jobs.reports.run(id);
    expect(platform.calls.length - before).toBe(readsInAll - kept);
    const [done] = await sql<{ status: string; token_id: string | null }>(
      'select status, token_id from report_requests where id = $1',
      [id],
    );
    expect(done).toEqual({ status: 'done', token_id: null });
    expect(await readsOf(id)).toBe(0);
  });
});
