import { describe, expect, it } from 'vitest';
import { COMPAT_MAPS_TO, type Backup, type ReportRequest } from '@ce/contract';
import { signedInClient } from './build-test-app.js';
import { CALLERS, compatSuite } from './support/compat.js';

const R = '/compat/reports/';
const API = '/compat/api/';
/** The dashboard counters of spec section 7 that answer `{ value }`. */
const VALUE_COUNTERS = [
  'Metrics',
  'Metrics-as',
  'Metrics-as-endp',
  'Metrics-alerts-report',
  'Metrics-as-closure',
  'Metrics-tams-weekly',
];

describe('the original reports service and bulk API, translated', () => {
  const suite = compatSuite();
  const cec = 'tam@demo.local';
  const group = () => {
    const first = suite.customer().groups[0];
    if (!first) throw new Error('the customer has groups');
    return { aid: first.aid, accountGroupId: first.aid, accountGroupName: first.accountGroupName };
  };
  const myReports = async () =>
    (await suite.tam().request({ method: 'GET', url: '/api/reports' })).json<{ reports: ReportRequest[] }>().reports;

  it.each(CALLERS)('answers the dashboard counters one by one in the shapes the original read (%s)', async (caller) => {
    const all = await suite.call(caller, 'GET', `${R}dashboard-metrics`);
    expect(all.statusCode, all.body).toBe(200);
    const metrics = all.json<{
      healthCheck: number;
      provisionedDashboards: number;
      hours: { tam: number; ps: number };
    }>();
    for (const name of VALUE_COUNTERS)
      expect((await suite.call(caller, 'GET', `${R}${name}/`)).json(), name).toEqual({ value: expect.any(Number) });
    expect((await suite.call(caller, 'GET', `${R}Metrics/`)).json()).toEqual({ value: metrics.healthCheck });
    expect((await suite.call(caller, 'GET', `${R}Metrics-Dashboards/`)).json()).toEqual({
      cloned_count: metrics.provisionedDashboards,
    });
    expect((await suite.call(caller, 'GET', `${R}Metrics-TimeTracker-hours/`)).json()).toEqual({
      TAMs: metrics.hours.tam,
      PS: metrics.hours.ps,
    });
  });

  it.each(CALLERS)(
    "lists the token's groups and a group's agents, and refuses a bad token with 401 (%s)",
    async (caller) => {
      const token = suite.customer().token;
      const groups = await suite.call(caller, 'POST', `${R}accountgroups7/`, { OAuth: token });
      expect(groups.json()).toEqual(expect.arrayContaining([expect.objectContaining({ accountGroupId: group().aid })]));
      const refused = await suite.call(caller, 'POST', `${R}accountgroups7/`, { OAuth: 'f'.repeat(36) });
      expect(refused.statusCode).toBe(401);
      const agents = await suite.call(caller, 'POST', `${R}agents7/`, { OAuth: token, aid: group().aid });
      expect(agents.json().agents.length).toBeGreaterThan(0);
      const bulkGroups = await suite.call(caller, 'POST', `${API}getAccountGroups`, { OAuthToken: token });
      expect(bulkGroups.json().accountGroups).toContainEqual(
        expect.objectContaining({ accountGroupId: group().aid, accountGroupName: group().accountGroupName }),
      );
      const bulkAgents = await suite.call(caller, 'POST', `${API}getAgents`, {
        OAuthToken: token,
        accountGroupId: group().aid,
      });
      expect(bulkAgents.json().agents).toEqual(agents.json().agents);
    },
  );

  it.each(CALLERS)('creates a test once, answering its id as the original did (%s)', async (caller) => {
    const token = suite.customer().token;
    const agents = (
      await suite.call(caller, 'POST', `${API}getAgents`, { OAuthToken: token, accountGroupId: group().aid })
    ).json<{
      agents: { agentId: string; agentType: string }[];
    }>().agents;
    const cloud = agents.filter((agent) => agent.agentType === 'cloud').slice(0, 2);
    const testData = (testName: string) => ({
      testName,
      type: 'http-server',
      interval: 300,
      agents: cloud.map((agent) => ({ agentId: agent.agentId })),
      alertsEnabled: true,
      description: '',
      url: 'https://compat.example.com',
    });
    const name7 = `Compat createtest7 (${caller})`;
    const viaReports = await suite.call(caller, 'POST', `${R}createtest7/`, {
      OAuth: token,
      accountGroupId: group().aid,
      testData: testData(name7),
    });
    expect(viaReports.statusCode, viaReports.body).toBe(201);
    const nameApi = `Compat createTest (${caller})`;
    const viaApi = await suite.call(caller, 'POST', `${API}createTest`, {
      OAuthToken: token,
      accountGroupId: group().aid,
      testData: testData(nameApi),
    });
    expect(viaApi.statusCode, viaApi.body).toBe(201);
    for (const [answer, name] of [
      [viaReports, name7],
      [viaApi, nameApi],
    ] as const) {
      const made = suite.world().tests.filter((test) => test.aid === group().aid && test.testName === name);
      expect(made).toHaveLength(1);
      expect(answer.json()).toMatchObject({ testId: made[0]?.testId, test: { testId: made[0]?.testId } });
    }
  });

  it.each(CALLERS)(
    'backs up the wrapped groups, answers the maintenance report as HTML, and mails feedback to the team (%s)',
    async (caller) => {
      const token = suite.customer().token;
      const backup = await suite.call(caller, 'POST', `${R}backup-restore/`, {
        no_todo_list2: [group(), { Mission: 'Backup', cec, OAuth: token }],
      });
      expect(backup.statusCode, backup.body).toBe(202);
      const [queued] = backup.json<{ backups: Backup[] }>().backups;
      const listed = (await suite.tam().request({ method: 'GET', url: '/api/backups' })).json<{ backups: Backup[] }>();
      expect(listed.backups.find((each) => each.id === queued?.id)).toMatchObject({ aid: group().aid });
      const html = await suite.call(caller, 'POST', `${API}maintenanceWindowReport`, {
        orgName: suite.customer().organization.name,
        OAuth: token,
        Mission: 'Maintenance Window Report',
        cec,
      });
      expect(html.statusCode, html.body).toBe(200);
      expect(html.json<{ htmlReport: string }>().htmlReport).toMatch(/<html/i);
      const words = `The closure document saved me an afternoon (${caller}).`;
      const feedback = await suite.call(caller, 'POST', `${R}Feedback/`, { feedback: words, rating: 5, cec });
      expect([feedback.statusCode, feedback.json()]).toEqual([
        200,
        { message: 'Thank you: your feedback was sent to the team.' },
      ]);
      const mailed = suite.app().sandbox?.mail.messages.find((message) => message.text.includes(words));
      expect(mailed).toMatchObject({
        to: 'ce-toolkit-support@example.com',
        subject: 'CE Toolkit feedback from tam@demo.local',
      });
      expect(mailed?.text).toContain('Rating: 5 of 5');
    },
  );

  it('files the raw AHC-IE body for a Super User, with its tables and days', async () => {
    const superUser = await signedInClient(suite.app().app, 'superuser@demo.local');
    const response = await superUser.request({
      method: 'POST',
      url: `${R}ahc7/`,
      payload: {
        OAuth: suite.customer().token,
        Mission: 'AHC-IE v7',
        cec: 'superuser@demo.local',
        accounts: [group()],
        selected: { tables: ['quotas', 'users_roles'], daysRange: 14 },
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    const { report } = response.json<{ report: ReportRequest }>();
    const filed = (await superUser.request({ method: 'GET', url: `/api/reports/${report.id}` })).json<ReportRequest>();
    expect(filed).toMatchObject({
      kind: 'ahc-ie',
      accountGroups: [expect.objectContaining({ aid: group().aid })],
      options: expect.objectContaining({ tables: ['quotas', 'users_roles'], daysRange: 14 }),
    });
  });

  it.each(CALLERS)('files each mission as its report kind in My Reports, with its groups (%s)', async (caller) => {
    // Each caller reads its own organization, so neither waits for the other's reports at the platform's pace.
    const { token, organization, aid, accountGroupName } = suite.organizationOf(caller);
    const group = () => ({ aid, accountGroupId: aid, accountGroupName });
    const meta = (Mission: string) => ({ Mission, cec, OAuth: token });
    const requests: [string, unknown, string][] = [
      ['request-report/', [group(), meta('AHC v6')], 'ahc-v6'],
      ['request-as/', [group(), meta('EPA Config Report')], 'epa-config'],
      ['request-as7/', { no_todo_list2: [group(), meta('CA & EA Tests Config Report v7')] }, 'tests-config-v7'],
      ['request-as7/', { no_todo_list2: [group(), meta('AS Built Closure Document')] }, 'closure-units'],
      ['request-as7/', { no_todo_list2: [group(), meta('Endpoints Closure Document')] }, 'closure-endpoints'],
      ['alert-reports7/', { no_todo_list2: [group(), meta('Alerts Configuration Report')] }, 'alerts-config'],
      [
        'tams-reports7/',
        { accountGroups: [group()], ...meta('TAMs Activity Report'), daysRange: 14, planner: [] },
        'tam-activity',
      ],
      ['mv_report/', { orgName: organization.name, ...meta('Maintenance Window Report') }, 'maintenance-window'],
      [
        'mv_report/',
        { no_todo_list2: [{ orgName: organization.name, ...meta('Maintenance Window Report') }] },
        'maintenance-window',
      ],
      ['ahc7/', { no_todo_list2: [group(), meta('AHC v7')] }, 'ahc-v7'],
    ];
    for (const [path, body, kind] of requests) {
      const response = await suite.call(caller, 'POST', `${R}${path}`, body);
      expect(response.statusCode, `${path} ${kind}: ${response.body}`).toBe(202);
      const { report, message } = response.json<{ report: ReportRequest; message: string }>();
      expect(report.kind).toBe(kind);
      if (kind === 'ahc-v7') expect(message).toBe('AHC v7 report submitted successfully');
      if (kind === 'alerts-config') expect(message).toBe('Report Requested Successfully');
      const filed = (await myReports()).find((each) => each.id === report.id);
      expect(filed?.kind).toBe(kind);
      expect(filed?.organizationName).toBe(organization.name);
      if (kind !== 'maintenance-window') expect(filed?.accountGroups.map((each) => each.aid)).toEqual([aid]);
      if (kind === 'tam-activity') expect(filed?.options).toMatchObject({ daysRange: 14 });
    }
    const [latest] = await myReports();
    for (const read of ['te-health', 'as-built']) {
      const answer = await suite.call(caller, 'GET', `${R}${read}/${latest?.id}`);
      expect([answer.statusCode, answer.json<ReportRequest>().id]).toEqual([200, latest?.id]);
    }
    // AHC-IE (raw, on the service of its own) is the Super User's: a TAM is refused by the product's own check.
    const ieBody = {
      ...meta('AHC-IE v7'),
      accounts: [group()],
      selected: { tables: ['quotas', 'users_roles'], daysRange: 14 },
    };
    expect((await suite.call(caller, 'POST', `${R}ahc7/`, ieBody)).statusCode).toBe(403);
  });

  it('lists every original call in the API document under its own tag, deprecated, naming the operation it maps to', async () => {
    const document = (await suite.app().app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        Record<string, { operationId: string; tags: string[]; deprecated?: boolean; description?: string }>
      >;
    }>();
    const compat = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.values(methods)
        .filter((operation) => operation.tags.includes('compat'))
        .map((operation) => ({ path, ...operation })),
    );
    expect(compat.map((operation) => operation.operationId).sort()).toEqual(Object.keys(COMPAT_MAPS_TO).sort());
    for (const operation of compat) {
      expect(operation.deprecated, operation.path).toBe(true);
      expect(operation.path.startsWith('/compat/'), operation.path).toBe(true);
      for (const modern of COMPAT_MAPS_TO[operation.operationId] ?? [])
        expect(operation.description, operation.operationId).toContain(`\`${modern}\``);
    }
    expect(compat.find((operation) => operation.operationId === 'compatFeedback')?.description).toContain(
      '`sendFeedback`',
    );
    // A path parameter lists the calls it takes, as spec section 7 names them: a script can see which exist.
    const accepted = (path: string, name: string) =>
      (document.paths[path] as Record<string, { parameters?: { name: string; schema: { enum?: string[] } }[] }>)[
        path.endsWith('{id}') || path.includes('{metric}') ? 'get' : 'post'
      ]?.parameters?.find((parameter) => parameter.name === name)?.schema.enum;
    expect(accepted(`${R}{metric}/`, 'metric')).toEqual([
      ...VALUE_COUNTERS,
      'Metrics-Dashboards',
      'Metrics-TimeTracker-hours',
    ]);
    expect(accepted(`${R}{call}/`, 'call')).toEqual([
      'request-report',
      'request-as',
      'request-as7',
      'alert-reports7',
      'tams-reports7',
      'mv_report',
      'ahc7',
    ]);
    expect(accepted(`${R}{read}/{id}`, 'read')).toEqual(['te-health', 'as-built']);
    const templated = Object.keys(document.paths).filter((path) => path.startsWith('/compat/') && path.includes('{'));
    expect(templated.sort()).toEqual([`${R}{call}/`, `${R}{metric}/`, `${R}{read}/{id}`]);
  });

  it("answers each refusal in the spec's words", async () => {
    const token = suite.customer().token;
    const refusal = async (body: unknown, path = 'request-as7/') => {
      const response = await suite.call('token', 'POST', `${R}${path}`, body);
      return [response.statusCode, response.json().error.message];
    };
    expect(await refusal([group(), { cec, OAuth: token }])).toEqual([400, 'Mission not specified in payload']);
    expect(await refusal([group(), { Mission: 'Weather Report', cec, OAuth: token }])).toEqual([
      400,
      'Unrecognized mission: Weather Report',
    ]);
    // A Mission that names what every object has is no report either (it once answered 500).
    for (const Mission of ['__proto__', 'constructor', 'toString'])
      for (const path of ['request-as7/', 'ahc7/', 'backup-restore/'])
        expect(await refusal([group(), { Mission, cec, OAuth: token }], path), `${path} ${Mission}`).toEqual([
          400,
          `Unrecognized mission: ${Mission}`,
        ]);
    for (const metric of ['__proto__', 'constructor', 'toString', 'Metrics-nope']) {
      const counter = await suite.call('token', 'GET', `${R}${metric}/`);
      expect([counter.statusCode, counter.json().error?.message], metric).toEqual([
        400,
        expect.stringMatching(/^No such counter: the counters are Metrics, Metrics-as, .*Metrics-TimeTracker-hours\.$/),
      ]);
    }
    const call = await suite.call('token', 'POST', `${R}request-nothing/`, [group(), { Mission: 'AHC v7', cec }]);
    expect([call.statusCode, call.json().error?.message]).toEqual([
      400,
      'No such call: the report calls are request-report, request-as, request-as7, alert-reports7, tams-reports7, mv_report, ahc7.',
    ]);
    expect(await refusal({ no_todo_list2: [group(), { Mission: 'AHC v7', cec }] })).toEqual([
      400,
      'OAuth token not provided',
    ]);
    expect(await refusal({ no_todo_list2: [{ Mission: 'AHC v7', cec, OAuth: token }] })).toEqual([
      400,
      'No account groups selected',
    ]);
    expect(await refusal([group(), { Mission: 'AHC v7', cec: 'proserv@demo.local', OAuth: token }])).toEqual([
      403,
      'cec must be the email of the signed-in user',
    ]);
    // A cookie session's state change needs the anti-forgery header, as every operation does.
    const forged = await suite.tam().request({
      method: 'POST',
      url: `${R}request-as7/`,
      payload: [group(), { Mission: 'AHC v7', cec, OAuth: token }],
      csrf: false,
    });
    expect(forged.statusCode).toBe(403);
    const anonymous = await suite.app().app.inject({ method: 'GET', url: `${R}dashboard-metrics` });
    expect(anonymous.statusCode).toBe(401);
  });
});
