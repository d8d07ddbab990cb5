import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DATABASES,
  untilFinished,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe.each(DATABASES)('the report pipeline (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let token: string;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    token = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
  });
  afterAll(async () => {
    await testApp.close();
  });

  const report = (id: string) =>
    tam.request({ method: 'GET', url: `/api/reports/${id}` }).then((response) => response.json());
  const finished = (id: string) => untilFinished(() => report(id));

  it('lists the account groups of a token, and refuses a revoked one with the spec message', async () => {
    const groups = await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } });
    expect(groups.statusCode).toBe(200);
    expect(groups.json().accountGroups).toHaveLength(6);
    const revoked = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'revoked')?.token;
    const refused = await tam.request({
      method: 'POST',
      url: '/api/account-groups',
      payload: { token: revoked },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe('Invalid OAuth token. Please check your token and try again.');
  });

  it('produces the alerts report, delivers it in Webex, and keeps no token anywhere', async () => {
    const groups = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } }))
      .json()
      .accountGroups.slice(0, 2);
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'alerts-config',
        token,
        organization: { id: groups[0].organizationId, name: groups[0].organizationName },
        accountGroups: groups,
        options: {},
      },
    });
    expect(created.statusCode).toBe(202);
    expect(created.json()).toMatchObject({ status: 'queued', kind: 'alerts-config', requestedBy: 'tam@demo.local' });

    const done = await finished(created.json().id);
    expect(done).toMatchObject({ status: 'done', progress: { done: 3, total: 3 }, delivery: { status: 'delivered' } });
    const xlsx = done.artifacts.find((artifact: { filename: string }) => artifact.filename.endsWith('.xlsx'));
    const file = await tam.request({ method: 'GET', url: `/api/reports/${done.id}/artifacts/${xlsx.id}` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      groups[0].accountGroupName,
      groups[1].accountGroupName,
    ]);
    expect(workbook.getWorksheet(groups[0].accountGroupName)?.getRow(1).getCell(1).value).toBe('Rule');
    expect(workbook.getWorksheet(groups[0].accountGroupName)?.rowCount).toBeGreaterThan(1);

    const messages =
      testApp.sandbox?.webex.messages.filter((message) => message.toPersonEmail === 'tam@demo.local') ?? [];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.markdown).toContain('Alerts configuration report');
    expect(messages[0]?.file?.name).toBe(xlsx.filename);

    // A queue job delivered again (a retry, a dead worker's job expiring) finds the report finished.
    await Promise.all([testApp.jobs.reports.run(done.id), testApp.jobs.reports.run(done.id)]);
    expect(
      testApp.sandbox?.webex.messages.filter((message) => message.toPersonEmail === 'tam@demo.local'),
    ).toHaveLength(1);
    const { rows: claims } = await testApp.database.sql.executeSql(
      'select attempts, status from report_requests where id = $1',
      [done.id],
    );
    expect(claims).toEqual([{ attempts: 1, status: 'done' }]);

    const { rows: tables } = await testApp.database.sql.executeSql(
      "select table_schema, table_name from information_schema.tables where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'",
    );
    for (const { table_schema: schema, table_name: table } of tables as {
      table_schema: string;
      table_name: string;
    }[]) {
      const { rows } = await testApp.database.sql.executeSql(`select * from "${schema}"."${table}"`);
      expect(JSON.stringify(rows), `${schema}.${table}`).not.toContain(token);
    }
    const { rows: sealed } = await testApp.database.sql.executeSql(
      'select (select count(*)::int from report_requests where token_id is not null) + (select count(*)::int from sealed_tokens) + (select count(*)::int from report_reads) as n',
    );
    expect(sealed).toEqual([{ n: 0 }]);
  });

  it('names the organization and groups as the platform does, escaped in Webex, whatever the browser sent', async () => {
    const [group] = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } })).json()
      .accountGroups;
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'alerts-config',
        token,
        organization: { id: group.organizationId, name: '**Pwned** [click](https://evil.example)' },
        accountGroups: [{ aid: group.aid, accountGroupName: '<img src=x onerror=alert(1)>' }],
        options: {},
      },
    });
    expect(created.statusCode).toBe(202);
    expect(created.json()).toMatchObject({
      organizationName: group.organizationName,
      accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
    });
    const done = await finished(created.json().id);
    expect(done.delivery.status).toBe('delivered');
    const markdown = testApp.sandbox?.webex.messages.at(-1)?.markdown ?? '';
    expect(markdown).not.toContain('Pwned');
    expect(markdown).not.toContain('<img');
    expect(markdown).toContain(group.organizationName.replaceAll('.', '\\.'));

    const unknown = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'alerts-config',
        token,
        organization: { id: group.organizationId, name: group.organizationName },
        accountGroups: [{ aid: 'not-a-group-of-this-token', accountGroupName: 'x' }],
        options: {},
      },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('unknown_account_group');
  });

  it('produces the maintenance window report for the whole organization, with a real PDF', async () => {
    const groups = (await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } })).json()
      .accountGroups;
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'maintenance-window',
        token,
        organization: { id: groups[0].organizationId, name: groups[0].organizationName },
        accountGroups: [],
        options: {},
      },
    });
    const done = await finished(created.json().id);
    expect(done.status).toBe('done');
    const pdf = done.artifacts.find((artifact: { filename: string }) => artifact.filename.endsWith('.pdf'));
    const bytes = (await tam.request({ method: 'GET', url: `/api/reports/${done.id}/artifacts/${pdf.id}` })).rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const html = done.artifacts.find((artifact: { filename: string }) => artifact.filename.endsWith('.html'));
    const page = await tam.request({ method: 'GET', url: `/api/reports/${done.id}/artifacts/${html.id}?inline=1` });
    expect(page.headers['content-security-policy']).toContain('sandbox');
    expect(page.body).toContain('Maintenance window report');
    expect(page.body).toContain('Weekly patch window');
  });

  it("refuses unknown kinds, empty selections, and other users' reports", async () => {
    const base = { token, organization: { id: '9000', name: 'Acme Corporation' }, options: {} };
    const unavailable = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { ...base, kind: 'ahc-v8', accountGroups: [{ aid: '1', accountGroupName: 'x' }] },
    });
    expect(unavailable.statusCode).toBe(400);
    const empty = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { ...base, kind: 'alerts-config', accountGroups: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('No account groups selected');
    const noMission = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { ...base, kind: undefined, accountGroups: [{ aid: '1', accountGroupName: 'x' }] },
    });
    expect(noMission.statusCode).toBe(400);
    expect(noMission.json().error.message).toBe('Mission not specified in payload');
    const unknownMission = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { ...base, kind: 'ahc-v9' },
    });
    expect(unknownMission.json().error.message).toBe('Unrecognized mission: ahc-v9');
    const ahcIe = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { ...base, kind: 'ahc-ie', accountGroups: [{ aid: '1', accountGroupName: 'x' }] },
    });
    expect(ahcIe.statusCode).toBe(403);
    const mine = (await tam.request({ method: 'GET', url: '/api/reports' })).json().reports;
    const other = await signedInClient(testApp.app, 'proserv@demo.local');
    expect((await other.request({ method: 'GET', url: `/api/reports/${mine[0].id}` })).statusCode).toBe(404);
    const admin = await signedInClient(testApp.app, 'superuser@demo.local');
    expect(
      (await admin.request({ method: 'GET', url: '/api/reports?scope=all' })).json().reports.length,
    ).toBeGreaterThanOrEqual(2);
  });
});
