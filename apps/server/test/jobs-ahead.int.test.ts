import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

/**
 * A job page says where a queued job waits: how many jobs of its organization (reports, runs, backups,
 * anyone's) run or were queued before it. Rows are put in place directly, with no worker to move them on.
 */
describe('jobs ahead of a queued one at its organization', () => {
  let testApp: TestApp;
  let tam: TestClient;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];

  /** A job row of `table` for `organization`, `secondsAgo` old. */
  async function job(table: string, organization: string, status: string, secondsAgo: number): Promise<string> {
    const [user] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const extra: Record<string, [string, string]> = {
      report_requests: ['kind, account_groups, options', `'ahc-v7', '[]', '{}'`],
      change_sets: ['kind, input', `'tests', '{"accountGroups": [], "templates": []}'`],
      backups: ['kind, aid, account_group_name', `'backup', '1', 'Acme - Main'`],
    };
    const [columns, values] = extra[table] ?? ['', ''];
    const [row] = await sql<{ id: string }>(
      `insert into ${table} (user_id, organization_id, organization_name, status, created_at, ${columns})
       values ($1, $2, 'Acme Corporation', $3, now() - ($4 || ' seconds')::interval, ${values}) returning id`,
      [user?.id, organization, status, String(secondsAgo)],
    );
    return row?.id ?? '';
  }

  const read = async (url: string) => (await tam.request({ method: 'GET', url })).json();

  it("counts the organization's running jobs and those queued before, of every kind, and no other organization's", async () => {
    await job('report_requests', '9100', 'running', 60);
    await job('backups', '9100', 'queued', 50);
    const run = await job('change_sets', '9100', 'queued', 40);
    const report = await job('report_requests', '9100', 'queued', 30);
    const backup = await job('backups', '9100', 'queued', 20);
    // Another organization's work, and this one's finished work, are not ahead of anything here.
    await job('change_sets', '9200', 'running', 70);
    await job('report_requests', '9100', 'done', 65);

    expect(await read(`/api/bulk/runs/${run}`)).toMatchObject({ status: 'queued', ahead: 2 });
    expect(await read(`/api/reports/${report}`)).toMatchObject({ status: 'queued', ahead: 3 });
    expect(await read(`/api/backups/${backup}`)).toMatchObject({ status: 'queued', ahead: 4 });
    const { reports: listed } = (await read('/api/reports')) as {
      reports: { id: string; ahead: number | null; status: string }[];
    };
    expect(listed.find((each) => each.id === report)?.ahead).toBe(3);
    // A job under way or ended is ahead of others, never behind: it has no place in the queue.
    expect(listed.filter((each) => each.status !== 'queued').map((each) => each.ahead)).toEqual([null, null]);
  });
});
