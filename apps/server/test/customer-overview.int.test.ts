import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerOverview, CustomerTimeline } from '@ce/contract';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

/**
 * A customer's page at a glance (issue 59): the latest health check (a watch's), the three checks to act on, what
 * needs attention (a person once), and the period's line whose counts are the timeline's; a watch's runs marked as
 * the watch's, and the waivers made and hours logged (through an engagement linked once) on the timeline.
 */
describe("a customer's overview", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let user: TestClient;
  const ORG = '8100';
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    user = await signedInClient(testApp.app, 'user@demo.local');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const one = async (text: string, values: unknown[] = []) => (await sql<{ id: string }>(text, values))[0]?.id ?? '';

  const check = (id: string, title: string, status: string, weight: number, items: [string, string][]) => ({
    id,
    title,
    status,
    threshold: '',
    weight,
    definition: '',
    remediation: `Fix ${title}`,
    items: items.map(([type, itemId]) => ({ type, id: itemId, name: `${type} ${itemId}`, detail: 'seen' })),
  });
  const findings = {
    score: { value: 42, grade: 'F' },
    generatedAt: new Date().toISOString(),
    checks: [
      check('inactive-users', 'Inactive users', 'fail', 10, [
        ['user', '1'],
        ['user', '2'],
      ]),
      check('login-frequency', 'Login frequency', 'fail', 15, [['user', '1']]),
      check('alerts-active', 'Alerts active', 'warn', 15, [['rule', 'r1']]),
      check('unused-tests', 'Unused tests', 'warn', 10, [['test', 't1']]),
      check('units-projected', 'Units projected', 'pass', 15, []),
    ],
    changes: {
      previousAt: null,
      items: [],
      trend: [
        { at: '2026-05-01T00:00:00.000Z', score: 60 },
        { at: '2026-05-08T00:00:00.000Z', score: 42 },
      ],
    },
  };

  beforeAll(async () => {
    const tamId = await one(`select id from users where email = 'tam@demo.local'`);
    const groups = `'[{"aid": "1", "accountGroupName": "Acme - Production"}]'`;
    const watchId = await one(
      `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel, speak_when)
       values ($1, $2, 'Acme Corporation', ${groups}, 'both', '{}', '{"kind": "owner"}', '{}') returning id`,
      [tamId, ORG],
    );
    const runId = await one(
      `insert into watch_runs (user_id, organization_id, organization_name, kind, status, watch_id, account_groups,
         due_at, trigger, score, backups, changes, created_at)
       values ($1, $2, 'Acme Corporation', 'watch', 'done', $3, ${groups}, now() - interval '1 hour', 'schedule', 42,
         '[]', '{"drift": [{"name": "a"}, {"name": "b"}]}', now() - interval '1 hour') returning id`,
      [tamId, ORG, watchId],
    );
    const watchReport = await one(
      `insert into report_requests (user_id, organization_id, organization_name, kind, status, account_groups, options,
         watch_run_id, created_at)
       values ($1, $2, 'Acme Corporation', 'ahc-v7', 'done', ${groups}, '{}', $3, now() - interval '50 minutes')
       returning id`,
      [tamId, ORG, runId],
    );
    await sql(
      `insert into report_artifacts (report_id, filename, content_type, content, size)
       values ($1, 'findings.json', 'application/json', convert_to($2, 'UTF8'), 10)`,
      [watchReport, JSON.stringify(findings)],
    );
    await sql(
      `insert into backups (user_id, organization_id, organization_name, status, kind, aid, account_group_name,
         watch_run_id, created_at)
       values ($1, $2, 'Acme Corporation', 'done', 'backup', '1', 'Acme - Production', $3, now() - interval '40 minutes')`,
      [tamId, ORG, runId],
    );
    // One report by hand, and one older than this week (in the last 30 days only).
    for (const ago of ['30 minutes', '12 days'])
      await sql(
        `insert into report_requests (user_id, organization_id, organization_name, kind, status, account_groups,
           options, created_at)
         values ($1, $2, 'Acme Corporation', 'epa-config', 'done', ${groups}, '{}', now() - $3::interval)`,
        [tamId, ORG, ago],
      );
    await sql(
      `insert into watch_waivers (organization_id, check_id, item_key, item_name, reason, expires_at, created_by)
       values ($1, 'inactive-users', 'user:2', 'user 2', 'on leave', now() + interval '30 days', $2)`,
      [ORG, tamId],
    );
    await sql(
      `insert into tracker_hours (user_id, engagement_id, work_date, hours, task_id)
       values ($1, 'ENG-77', '2026-05-11', 2.5, 't1'), ($1, 'ENG-77', '2026-05-12', 1, 't2'),
         ($1, 'ENG-OTHER', '2026-05-12', 8, 't3')`,
      [tamId],
    );
  });

  const get = async <T>(client: TestClient, url: string) => {
    const response = await client.request({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as T };
  };

  it('links an engagement once; another customer is told where it is linked', async () => {
    const linked = await tam.request({
      method: 'POST',
      url: `/api/customers/${ORG}/engagements`,
      payload: { engagementId: 'ENG-77' },
    });
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toMatchObject({ engagements: [{ engagementId: 'ENG-77', linkedBy: 'tam@demo.local' }] });
    const elsewhere = await tam.request({
      method: 'POST',
      url: '/api/customers/9999/engagements',
      payload: { engagementId: 'ENG-77' },
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json()).toMatchObject({
      error: {
        code: 'engagement_linked_elsewhere',
        message: `This engagement is linked to another customer (organization ${ORG}): unlink it there first.`,
      },
    });
    // The time tracker's tool: a role without it may not link.
    const refused = await user.request({
      method: 'POST',
      url: `/api/customers/${ORG}/engagements`,
      payload: { engagementId: 'ENG-1' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('says the latest health check, the three checks to act on, and a person named by two checks once', async () => {
    const { status, body } = await get<CustomerOverview>(tam, `/api/customers/${ORG}/overview`);
    expect(status).toBe(200);
    expect(body.health).toMatchObject({ score: 42, grade: 'F', findings: 4, byWatch: true });
    expect(body.health?.trend.map((point) => point.score)).toEqual([60, 42]);
    expect(body.topActions.map((action) => action.check)).toEqual([
      'Login frequency',
      'Alerts active',
      'Inactive users',
    ]);
    expect(body.attention.people).toEqual([
      expect.objectContaining({
        itemKey: 'user:1',
        checks: [
          expect.objectContaining({ check: 'Login frequency' }),
          expect.objectContaining({ check: 'Inactive users' }),
        ],
      }),
    ]);
    // user:1 is listed once (with the people), user:2 is waived.
    expect(body.attention.groups.find((group) => group.checkId === 'inactive-users')?.items).toEqual([]);
    expect(body.period).toMatchObject({ days: 7, byWatches: 2, drift: 2, hours: 3.5, waivers: 1 });
  });

  it("counts what the timeline lists for the same period, the watch's runs marked as the watch's", async () => {
    for (const days of [7, 30]) {
      const overview = (await get<CustomerOverview>(tam, `/api/customers/${ORG}/overview?days=${days}`)).body;
      const timeline = (await get<CustomerTimeline>(tam, `/api/customers/${ORG}/timeline?days=${days}`)).body;
      const counted = new Map<string, number>();
      for (const entry of timeline.entries)
        if (entry.tool !== 'waivers' && entry.tool !== 'hours')
          counted.set(entry.tool, (counted.get(entry.tool) ?? 0) + 1);
      expect(Object.fromEntries(overview.period.runs.map((run) => [run.tool, run.count]))).toEqual(
        Object.fromEntries(counted),
      );
      expect(overview.period.runs.find((run) => run.tool === 'reports')?.count).toBe(days === 7 ? 2 : 3);
    }
    const { body } = await get<CustomerTimeline>(tam, `/api/customers/${ORG}/timeline?days=7`);
    const byWatch = body.entries.filter((entry) => entry.watch);
    expect(byWatch.map((entry) => [entry.tool, entry.watch?.label])).toEqual([
      ['backups', 'Account Watch run (scheduled)'],
      ['reports', 'Account Watch run (scheduled)'],
    ]);
    expect(body.entries.find((entry) => entry.tool === 'waivers')?.what).toMatch(
      /^Waived: user 2 \(Inactive users\) until \d{4}-\d{2}-\d{2}$/,
    );
    expect(
      body.entries
        .filter((entry) => entry.tool === 'hours')
        .map((entry) => entry.what)
        .sort(),
    ).toEqual(['1 h logged on ENG-77 (2026-05-12)', '2.5 h logged on ENG-77 (2026-05-11)']);
  });

  it('unlinks an engagement: its hours no longer count', async () => {
    const unlinked = await tam.request({ method: 'DELETE', url: `/api/customers/${ORG}/engagements/ENG-77` });
    expect(unlinked.statusCode).toBe(204);
    const { body } = await get<CustomerOverview>(tam, `/api/customers/${ORG}/overview`);
    expect(body.period.hours).toBe(0);
    expect(body.engagements).toEqual([]);
  });
});
