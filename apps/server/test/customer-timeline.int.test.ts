import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerTimeline } from '@ce/contract';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

/**
 * A customer's page lists everything done for one organization: reports, runs of every writing tool, backups and
 * dashboard pushes, newest first, with their groups, owner and page. Rows are put in place directly (no worker).
 */
describe("a customer's page", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let superUser: TestClient;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const userId = async (email: string) =>
    (await sql<{ id: string }>('select id from users where email = $1', [email]))[0]?.id ?? '';

  /** A job row of `table` for `organization`, made by `email` `minutesAgo` minutes ago. */
  async function job(table: string, email: string, organization: string, minutesAgo: number, extra: [string, string]) {
    const [row] = await sql<{ id: string }>(
      `insert into ${table} (user_id, organization_id, organization_name, status, created_at, ${extra[0]})
       values ($1, $2, 'Acme Corporation', 'done', now() - ($3 || ' minutes')::interval, ${extra[1]}) returning id`,
      [await userId(email), organization, String(minutesAgo)],
    );
    return row?.id ?? '';
  }
  const report = (email: string, organization: string, minutesAgo: number) =>
    job('report_requests', email, organization, minutesAgo, [
      'kind, account_groups, options',
      `'ahc-v7', '[{"aid": "1", "accountGroupName": "Acme - Production"}]', '{}'`,
    ]);
  const backup = (email: string, organization: string, minutesAgo: number) =>
    job('backups', email, organization, minutesAgo, ['kind, aid, account_group_name', `'backup', '2', 'Acme - EMEA'`]);
  async function run(email: string, organization: string, kind: string, minutesAgo: number, groups: string[]) {
    const id = await job('change_sets', email, organization, minutesAgo, ['kind, input', `'${kind}', '{}'`]);
    for (const [position, group] of groups.entries())
      await sql(
        `insert into change_set_items (run_id, position, action, aid, account_group_name, subject, payload, status)
         values ($1, $2, 'create-test', $3, $4, 'a test', '{}', 'done')`,
        [id, position, String(position), group],
      );
    return id;
  }
  async function push(email: string, organization: string | null, minutesAgo: number) {
    const [dashboard] = await sql<{ id: string }>(
      `insert into community_dashboards (source_dashboard_id, title, description, creator_email, organization_name,
         account_group_name, template, "references", widget_count)
       values ('d1', 'WAN health', '', $1, 'Globex', 'Globex - Main', '{}', '{}', 3) returning id`,
      [email],
    );
    await sql(
      `insert into community_dashboard_pushes (dashboard_id, user_id, user_email, organization_id, organization_name,
         aid, account_group_name, mapped, dropped, created_at)
       values ($1, $2, $3, $4, 'Acme Corporation', '3', 'Acme - Staging', 2, 0, now() - ($5 || ' minutes')::interval)`,
      [dashboard?.id, await userId(email), email, organization, String(minutesAgo)],
    );
  }

  const timeline = async (client: TestClient, organization: string, query = '') => {
    const response = await client.request({ method: 'GET', url: `/api/customers/${organization}/timeline${query}` });
    return { status: response.statusCode, body: response.json() as CustomerTimeline };
  };

  it("lists the caller's work for the organization, newest first, with its groups, owner and page", async () => {
    const reportId = await report('tam@demo.local', '7100', 50);
    const runId = await run('tam@demo.local', '7100', 'tests', 40, ['Acme - Staging', 'Acme - EMEA', 'Acme - EMEA']);
    await run('tam@demo.local', '7100', 'alerts-migration', 30, ['Acme - APAC']);
    await backup('tam@demo.local', '7100', 20);
    await run('tam@demo.local', '7100', 'restore', 15, ['Acme - EMEA']);
    await push('tam@demo.local', '7100', 10);
    // Not on this page: another organization's work, someone else's, work older than the period.
    await report('tam@demo.local', '7200', 5);
    await report('superuser@demo.local', '7100', 5);
    await report('tam@demo.local', '7100', 60 * 24 * 40);

    const { status, body } = await timeline(tam, '7100');
    expect(status).toBe(200);
    expect(body.organizationName).toBe('Acme Corporation');
    expect(body.entries.map((entry) => [entry.tool, entry.what])).toEqual([
      ['dashboards', 'Dashboard "WAN health" pushed'],
      ['restores', 'Restore'],
      ['backups', 'Backup'],
      ['alerts-migration', 'Alerts migration'],
      ['bulk', 'Create tests'],
      ['reports', 'AHC v7 report'],
    ]);
    const bulk = body.entries.find((entry) => entry.tool === 'bulk');
    expect(bulk).toMatchObject({
      id: runId,
      accountGroups: expect.arrayContaining(['Acme - Staging', 'Acme - EMEA']),
      person: { email: 'tam@demo.local' },
      path: `/home/tools/bulk-tests?run=${runId}`,
    });
    expect(bulk?.accountGroups).toHaveLength(2);
    const backedUp = body.entries.find((entry) => entry.tool === 'backups');
    expect(backedUp?.path).toBe(`/home/tools/backup-restore?backup=${backedUp?.id ?? ''}`);
    expect(body.entries.find((entry) => entry.tool === 'reports')).toMatchObject({
      accountGroups: ['Acme - Production'],
      path: `/home/reports?report=${reportId}`,
    });
    expect(body.people).toEqual([]);
  });

  it('filters by tool and period', async () => {
    const { body: bulkOnly } = await timeline(tam, '7100', '?tool=bulk');
    expect(bulkOnly.entries.map((entry) => entry.tool)).toEqual(['bulk']);
    const { body: longer } = await timeline(tam, '7100', '?days=90');
    expect(longer.entries.filter((entry) => entry.tool === 'reports')).toHaveLength(2);
    const { status } = await timeline(tam, '7100', '?days=12');
    expect(status).toBe(400);
  });

  it("shows everyone's work, and one person's, only to those who may see every run", async () => {
    expect((await timeline(tam, '7100', '?everyone=true')).status).toBe(403);
    const { body } = await timeline(superUser, '7100', '?everyone=true&tool=reports');
    expect(body.entries.map((entry) => entry.person.email).sort()).toEqual(['superuser@demo.local', 'tam@demo.local']);
    expect(body.people.map((person) => person.email)).toEqual(['superuser@demo.local', 'tam@demo.local']);
    const { body: one } = await timeline(superUser, '7100', '?everyone=true&person=superuser@demo.local');
    expect(one.entries.map((entry) => entry.person.email)).toEqual(['superuser@demo.local']);
  });

  it("lists a run that wrote into the organization from another one, without taking that one's name", async () => {
    const [row] = await sql<{ id: string }>(
      `insert into change_sets (user_id, organization_id, organization_name, target_organization_id, status, kind, input)
       values ($1, '7400', 'Globex Financial', '7500', 'done', 'alerts-migration', '{}') returning id`,
      [await userId('tam@demo.local')],
    );
    const { body } = await timeline(tam, '7500');
    expect(body.entries.map((entry) => entry.id)).toEqual([row?.id]);
    expect(body.organizationName).toBeNull();
    await report('tam@demo.local', '7500', 90);
    expect((await timeline(tam, '7500')).body.organizationName).toBe('Acme Corporation');
    expect((await timeline(tam, '7400')).body.organizationName).toBe('Globex Financial');
  });

  it("shows only what the caller may read: a role's tools, a personal API token's capabilities", async () => {
    await report('tam@demo.local', '7600', 30);
    await run('tam@demo.local', '7600', 'tests', 20, ['Acme - Staging']);
    await backup('tam@demo.local', '7600', 10);
    const tools = (entries: CustomerTimeline['entries']) => entries.map((entry) => entry.tool);
    expect(tools((await timeline(tam, '7600')).body.entries)).toEqual(['backups', 'bulk', 'reports']);
    const byToken = async (capabilities: string[]) => {
      const created = await tam.request({
        method: 'POST',
        url: '/api/account/api-tokens',
        payload: { name: `timeline ${capabilities.join(' ')}`, expiresInDays: 1, capabilities },
      });
      expect(created.statusCode, created.body).toBe(201);
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/api/customers/7600/timeline',
        headers: { authorization: `Bearer ${created.json<{ secret: string }>().secret}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      return tools(response.json<CustomerTimeline>().entries);
    };
    // A token that carries neither the Tools group nor the health check sees none of that work.
    expect(await byToken(['customerToken'])).toEqual([]);
    expect(await byToken(['tools'])).toEqual(['backups', 'bulk']);
    expect(await byToken(['healthCheck'])).toEqual(['reports']);
    // A role without the Tools group (User) sees its own reports, never its runs or backups.
    const user = await signedInClient(testApp.app, 'user@demo.local');
    await report('user@demo.local', '7600', 8);
    await run('user@demo.local', '7600', 'tests', 6, ['Acme - Staging']);
    await backup('user@demo.local', '7600', 4);
    expect(tools((await timeline(user, '7600')).body.entries)).toEqual(['reports']);
  });

  it('refuses a control character in the organization or the person (400, not a database error)', async () => {
    expect((await timeline(tam, '%00')).status).toBe(400);
    expect((await timeline(superUser, '7100', '?everyone=true&person=%00')).status).toBe(400);
  });

  it('is for signed-in users only, and an organization with no work for it is an empty page', async () => {
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/customers/7100/timeline' });
    expect(anonymous.statusCode).toBe(401);
    const { status, body } = await timeline(tam, '7999');
    expect(status).toBe(200);
    expect(body).toEqual({ organizationId: '7999', organizationName: null, entries: [], people: [] });
  });
});
