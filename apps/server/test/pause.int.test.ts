import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { readArchive } from '../src/modules/backup-restore/archive-reader.js';
import { bgpTemplate } from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';
import { Cluster, RoundRobinClient, type ClusterProcess } from './cluster.js';

// A worker paused (SIGSTOP) past its lease while it holds a bulk run, a report and a backup, the jobs taken over
// by another worker, then the paused one resumed (SIGCONT): processes on one PostgreSQL database, as deployed.
const onPostgres = postgresRuns('The paused-worker test');

const LIMIT = 8;
const WINDOW_MS = 2_000;
const LEASE_MS = 4_000;
const EMAIL = 'tam@pause.test';
const PASSWORD = 'a long paused-worker password';

interface Group {
  aid: string;
  accountGroupName: string;
  organizationId: string;
  organizationName: string;
}
interface Item {
  aid: string;
  subject: string;
  status: string;
  resultId: string | null;
}
interface Run {
  id: string;
  status: string;
  totals: Record<string, number>;
  items: Item[];
}

describe.runIf(onPostgres)('a worker paused past its lease, then resumed', () => {
  const cluster = new Cluster({ jobLeaseMs: LEASE_MS });
  let web: ClusterProcess;
  let paused: ClusterProcess;
  const sandbox = (url: string, init?: RequestInit) => cluster.sandboxCall(url, init);

  beforeAll(async () => {
    await cluster.open();
    await cluster.scenario({ rateLimitPerMinute: LIMIT, windowMs: WINDOW_MS, latencyMs: 40 });
    // One worker first: it takes all three jobs (JOB_CONCURRENCY is 3).
    [web, paused] = (await cluster.start([
      { name: 'web-1', worker: false },
      { name: 'worker-1', worker: true },
    ])) as [ClusterProcess, ClusterProcess];
  }, 180_000);
  afterAll(async () => {
    // A stopped process takes no SIGKILL until it runs again.
    if (paused && paused.process.exitCode === null) paused.process.kill('SIGCONT');
    await cluster.close();
  }, 60_000);

  it("writes nothing once resumed: every recorded outcome is the platform's, one message per key, the archive its checksum, and undo leaves nothing", async () => {
    await cluster.addUser(EMAIL, 'TAM', PASSWORD);
    const browser = new RoundRobinClient([web]);
    expect((await browser.call('GET', '/api/app-info')).status).toBe(200);
    expect((await browser.call('POST', '/api/session', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    const { tokens } = (await (await sandbox('/te/tokens')).json()) as { tokens: { token: string; kind: string }[] };
    const token = tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const groups = (await browser.call<{ accountGroups: Group[] }>('POST', '/api/account-groups', { token })).body
      .accountGroups;
    const chosen = groups.slice(0, 2).map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
    const organization = { id: groups[0]?.organizationId ?? '', name: groups[0]?.organizationName ?? '' };
    const templates = Array.from({ length: 8 }, (_, index) => bgpTemplate(`Paused ${index + 1}`));
    const names = templates.map((template) => template.testName);

    // The run first, until worker-1 has created some of its tests; then the report and the backup, so that both
    // are surely under way when the worker stops (started with the run, they could end before it created one).
    const bulk = await browser.call<{ id: string }>('POST', '/api/bulk/runs', {
      kind: 'tests',
      token,
      organization,
      accountGroups: chosen,
      templates,
    });
    expect(bulk.status).toBe(202);
    const readRun = async () => (await browser.call<Run>('GET', `/api/bulk/runs/${bulk.body.id}`)).body;
    await vi.waitFor(async () => expect((await readRun()).totals.done).toBeGreaterThanOrEqual(2), {
      timeout: 90_000,
      interval: 50,
    });
    const [report, backup] = await Promise.all([
      browser.call<{ id: string }>('POST', '/api/reports', {
        kind: 'alerts-config',
        token,
        organization,
        accountGroups: chosen,
        options: {},
      }),
      browser.call<{ id: string }>('POST', '/api/backups', {
        token,
        organization,
        accountGroups: [{ aid: chosen[0]?.aid }],
      }),
    ]);
    expect([report.status, backup.status]).toEqual([202, 202]);
    const backupId = (backup.body as unknown as { backups: { id: string }[] }).backups[0]?.id ?? '';
    const jobs = [
      { table: 'change_sets', id: bulk.body.id, url: `/api/bulk/runs/${bulk.body.id}` },
      { table: 'report_requests', id: report.body.id, url: `/api/reports/${report.body.id}` },
      { table: 'backups', id: backupId, url: `/api/backups/${backupId}` },
    ];
    const rowOf = async (table: string, id: string) =>
      (
        await cluster.query<{ status: string; lease_owner: string | null; lapsed: boolean }>(
          `select status, lease_owner, lease_until < now() as lapsed from ${table} where id = $1`,
          [id],
        )
      )[0];

    // All three under way on worker-1: then the worker stops, mid-run. The three rows are read at once, right
    // before it stops.
    const underWay = async () =>
      (
        await cluster.query<{ status: string; lease_owner: string | null }>(
          `select status, lease_owner from change_sets where id = $1
           union all select status, lease_owner from report_requests where id = $2
           union all select status, lease_owner from backups where id = $3`,
          jobs.map((job) => job.id),
        )
      ).map((row) => `${row.status} on ${row.lease_owner}`);
    await vi.waitFor(async () => expect(await underWay()).toEqual(Array(3).fill('running on worker-1')), {
      timeout: 90_000,
      interval: 50,
    });
    paused.process.kill('SIGSTOP');

    // Its leases lapse (on the database's clock); a second worker starts and takes the three jobs over.
    await vi.waitFor(
      async () => {
        for (const job of jobs) expect(await rowOf(job.table, job.id)).toMatchObject({ lapsed: true });
      },
      { timeout: 30_000, interval: 200 },
    );
    await cluster.start([{ name: 'worker-2', worker: true }]);
    const finished = await Promise.all(
      jobs.map((job) =>
        vi.waitFor(
          async () => {
            const body = (await browser.call<{ status: string }>('GET', job.url)).body;
            expect(body.status).toMatch(/^(done|failed)$/);
            return body;
          },
          { timeout: 180_000, interval: 250 },
        ),
      ),
    );
    expect(
      finished.map((body) => body.status),
      JSON.stringify(finished).slice(0, 3000),
    ).toEqual(['done', 'done', 'done']);
    const before = { run: await readRun(), report: await browser.call('GET', jobs[1]?.url ?? '') };

    // The paused worker resumes: each of its three jobs finds its lease lost, and it writes nothing.
    paused.process.kill('SIGCONT');
    await vi.waitFor(
      () => {
        const lost = paused
          .output()
          .split('\n')
          .filter((line) => line.includes('lease lost to another worker'));
        for (const job of jobs)
          expect(
            lost.some((line) => line.includes(job.id)),
            `${job.table}; worker-1 printed last: ${paused.output().slice(-4000)}`,
          ).toBe(true);
      },
      { timeout: 60_000, interval: 100 },
    );
    const run = await readRun();
    expect(run).toEqual(before.run);
    expect((await browser.call('GET', jobs[1]?.url ?? '')).body).toEqual(before.report.body);

    // Every recorded outcome is what the platform holds: each test once per group, under the id recorded.
    expect(run.totals).toMatchObject({ total: 16, done: 16, failed: 0 });
    const platformTests = async (aid: string) => {
      const answer = await vi.waitFor(
        async () => {
          const listed = await sandbox(`/te/v7/tests?aid=${aid}`, { headers: { authorization: `Bearer ${token}` } });
          expect(listed.status).toBe(200);
          return (await listed.json()) as { tests: { testId: string; testName: string }[] };
        },
        { timeout: 3 * WINDOW_MS + 10_000, interval: 300 },
      );
      return answer.tests.filter((test) => names.includes(test.testName));
    };
    for (const group of chosen) {
      const held = await platformTests(group.aid);
      expect(held.map((test) => test.testName).sort(), group.accountGroupName).toEqual([...names].sort());
      const recorded = run.items.filter((item) => item.aid === group.aid);
      expect(recorded.map((item) => [item.subject, item.resultId]).sort()).toEqual(
        held.map((test) => [test.testName, test.testId]).sort(),
      );
    }

    // The report's files once, its Webex messages once per key (what the sandbox received is what was recorded).
    const done = before.report.body as { artifacts: { id: string; filename: string }[]; delivery: { status: string } };
    expect(done.delivery.status).toBe('delivered');
    expect(new Set(done.artifacts.map((artifact) => artifact.filename)).size).toBe(done.artifacts.length);
    const xlsx = done.artifacts.find((artifact) => artifact.filename.endsWith('.xlsx'));
    const file = await browser.download(`/api/reports/${report.body.id}/artifacts/${xlsx?.id}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      ...chosen.map((group) => group.accountGroupName),
    ]);
    const { items: messages } = (await (
      await sandbox(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`)
    ).json()) as { items: unknown[] };
    const [deliveries] = await cluster.query<{ count: number; keys: number; report: number }>(
      `select count(*)::int as count, count(distinct key)::int as keys,
              count(*) filter (where key like $1)::int as report
         from webex_deliveries where status = 'sent'`,
      [`report:${report.body.id}:%`],
    );
    expect(deliveries?.report).toBeGreaterThanOrEqual(1);
    expect(messages.length).toBe(deliveries?.count);
    expect(deliveries?.keys).toBe(deliveries?.count);

    // The backup's archive is whole: its bytes match the checksum recorded, and it reads back.
    const backupDone = finished[2] as unknown as { checksum: string; size: number };
    const archive = await browser.download(`/api/backups/${jobs[2]?.id}/archive`);
    expect(archive.length).toBe(backupDone.size);
    expect(createHash('sha256').update(archive).digest('hex')).toBe(backupDone.checksum);
    await expect(readArchive(archive)).resolves.toHaveProperty('manifest');

    // Undo removes every test the run created, and nothing is left of it in the account.
    const undo = await browser.call<{ id: string }>('POST', `/api/bulk/runs/${bulk.body.id}/undo`, { token });
    expect(undo.status).toBe(202);
    const undone = await vi.waitFor(
      async () => {
        const body = (await browser.call<Run>('GET', `/api/bulk/runs/${undo.body.id}`)).body;
        expect(body.status).toMatch(/^(done|failed)$/);
        return body;
      },
      { timeout: 120_000, interval: 250 },
    );
    expect(undone.totals).toMatchObject({ total: 16, done: 16, failed: 0 });
    for (const group of chosen) expect(await platformTests(group.aid)).toEqual([]);
  }, 480_000);
});
