import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortfolioEntry } from '@ce/contract';
import { createTestApp, DATABASES, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

/** Past PostgreSQL's 65,535 bind parameters: one per watch id would not fit in one statement. */
const WATCHES = 70_000;
const ORGANIZATIONS = 2_000;

/**
 * My customers (`GET /api/watch-portfolio`) and its fleet summary read every watch the caller sees in a few
 * statements of raw SQL. Attacked with what a large book or an odd history holds: a Super User's 70,000 watches,
 * organization ids with quotes and emoji, runs whose kept `changes` is not an object. Each answers 200 with the
 * right figures, on PGlite and on PostgreSQL.
 */
describe.each(DATABASES)('My customers, attacked by what it reads (%s)', (kind) => {
  let testApp: TestApp;
  let superUser: TestClient;
  let tam: TestClient;

  const exec = (text: string, params: unknown[] = []) => testApp.database.sql.executeSql(text, params);
  const watchOf = async (email: string, organizationId: string, organizationName: string) => {
    const result = await exec(
      `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel, speak_when)
       select id, $2, $3, '[{"aid":"1","accountGroupName":"G"}]'::jsonb, 'both',
         '{"cadence":"daily","weekday":null,"time":"07:00","timeZone":"UTC"}'::jsonb, '{"kind":"owner"}'::jsonb, '{}'::jsonb
       from users where email = $1 returning id`,
      [email, organizationId, organizationName],
    );
    return (result.rows[0] as { id: string }).id;
  };
  /** A finished run of a watch, `minutesAgo` before now, with what it kept. */
  const runOf = (watchId: string, minutesAgo: number, score: number, changes: string, backups: string | null) =>
    exec(
      `insert into watch_runs (user_id, kind, organization_id, organization_name, status, watch_id, account_groups,
         due_at, trigger, score, changes, backups, created_at, finished_at)
       select user_id, runs, organization_id, organization_name, 'done', id, account_groups,
         now() - make_interval(mins => $2), 'schedule', $3, $4::jsonb, $5::jsonb,
         now() - make_interval(mins => $2), now() - make_interval(mins => $2)
       from watches where id = $1`,
      [watchId, minutesAgo, score, changes, backups],
    );
  const portfolio = async (client: TestClient, query = '') => {
    const response = await client.request({ method: 'GET', url: `/api/watch-portfolio${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ customers: PortfolioEntry[] }>().customers;
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  }, 120_000);
  afterAll(async () => {
    await testApp.close();
  });

  it('reads organization ids and names with quotes, a semicolon and emoji as any other', async () => {
    const odd = [
      { id: `o'rg "1"; drop table watches; --`, name: `O'Brien & "Sons"` },
      { id: 'org-ü-😀-\\x', name: 'Ünïcode 😀 Ltd' },
    ];
    for (const [index, organization] of odd.entries()) {
      const watchId = await watchOf('tam@demo.local', organization.id, organization.name);
      await runOf(watchId, 60, 70 + index, '{}', null);
    }
    const customers = await portfolio(tam);
    expect(
      customers.map(({ organizationId, organizationName, score }) => ({ organizationId, organizationName, score })),
    ).toEqual(
      expect.arrayContaining([
        { organizationId: odd[0]?.id, organizationName: odd[0]?.name, score: 70 },
        { organizationId: odd[1]?.id, organizationName: odd[1]?.name, score: 71 },
      ]),
    );
    expect((await exec('select count(*)::int as n from watches')).rows).toEqual([{ n: 2 }]);
  });

  it('reads runs whose kept changes is not an object, nor its checks and drift lists, without failing', async () => {
    const watchId = await watchOf('tam@demo.local', 'org-odd-history', 'Odd History');
    const kept = [
      '"a string"',
      '[1, 2, 3]',
      'null',
      '{"checks": "not a list", "drift": {"not": "a list"}}',
      '{"checks": [1, "x", null, {"title": 5, "before": "pass", "after": "fail"}], "drift": "x"}',
    ];
    for (const [index, changes] of kept.entries()) await runOf(watchId, 50 - index, 80 + index, changes, '[]');
    // The newest: a run that took backups, its drift kept as a list of two lines.
    await runOf(watchId, 10, 90, '{"drift": [{"line": "a"}, {"line": "b"}]}', '[]');
    const entry = (await portfolio(tam)).find((customer) => customer.organizationId === 'org-odd-history');
    expect(entry).toMatchObject({ score: 90, driftSinceBackup: 2, commonRegressions: [] });
    // The newest run now has no score and kept a drift that is not a list: the score is the run's before, no line counted.
    await exec(`update watch_runs set score = null where watch_id = $1 and score = 90`, [watchId]);
    await exec(`update watch_runs set changes = '{"drift": "x"}'::jsonb where watch_id = $1 and score is null`, [
      watchId,
    ]);
    expect((await portfolio(tam)).find((customer) => customer.organizationId === 'org-odd-history')).toMatchObject({
      score: 84,
      driftSinceBackup: 0,
    });
  });

  // The bind-parameter limit is PostgreSQL's parser's, PGlite's too: the large book runs on one database (the server
  // when there is one), not twice.
  it.runIf(kind === DATABASES.at(-1))(
    `answers a Super User's ${WATCHES.toLocaleString('en')} watches of everyone, and their fleet summary`,
    async () => {
      await exec(
        `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel, speak_when)
       select u.id, 'bulk-' || (n % ${ORGANIZATIONS}), 'Bulk ' || (n % ${ORGANIZATIONS}), '[]'::jsonb, 'health',
         '{"cadence":"daily","weekday":null,"time":"07:00","timeZone":"UTC"}'::jsonb, '{"kind":"owner"}'::jsonb, '{}'::jsonb
       from users u, generate_series(1, ${WATCHES}) n where u.email = 'superuser@demo.local'`,
      );
      // One of them, among the last made, has a finished run: its score must come through.
      const [last] = (
        await exec(`select id from watches where organization_id = 'bulk-7' order by created_at desc, id limit 1`)
      ).rows as { id: string }[];
      await runOf(last?.id ?? '', 5, 64, '{}', null);
      const everyone = await portfolio(superUser, '?everyone=true');
      // Every organization once: the bulk ones, and the tam's three above.
      expect(everyone).toHaveLength(ORGANIZATIONS + 3);
      expect(everyone.find((customer) => customer.organizationId === 'bulk-7')).toMatchObject({
        watches: WATCHES / ORGANIZATIONS,
        score: 64,
        owners: ['superuser@demo.local'],
      });
      const fleet = await superUser.request({ method: 'GET', url: '/api/watch-portfolio/fleet?everyone=true' });
      expect(fleet.statusCode, fleet.body.slice(0, 300)).toBe(200);
      expect(fleet.json<{ customers: unknown[] }>().customers).toHaveLength(ORGANIZATIONS + 3);
      expect(testApp.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    },
    180_000,
  );
});
