import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PlatformClient,
  PlatformError,
  type PlatformSession,
  type PlatformTestType,
  type TestCreateBody,
} from '../src/index.js';
import { ENDPOINT_WRITE_OPERATIONS, exerciseEndpointWrites } from './contract-endpoint.js';
import { exerciseMeasured, MEASURED_OPERATIONS } from './contract-measured.js';
import { exerciseReview, REVIEW_OPERATIONS } from './contract-review.js';
import { findOpenApiDocument, OpenApiValidator } from './openapi-validator.js';
import { startSandbox } from './start-sandbox.js';

interface Exchange {
  method: string;
  pathname: string;
  requestBody: unknown;
  status: number;
  contentType: string;
  responseBody: unknown;
}

/** Every operation of the document the client uses: the suite fails if one is not exercised. */
const CLIENT_OPERATIONS = [
  'GET /account-groups',
  'GET /account-groups/{id}',
  'GET /users',
  'GET /users/{id}',
  'GET /users/current',
  'POST /users',
  'GET /roles',
  'GET /roles/{id}',
  'GET /audit-user-events',
  'GET /tests',
  ...(['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'] as const).flatMap((type) => [
    `GET /tests/${type}`,
    `POST /tests/${type}`,
    `GET /tests/${type}/{testId}`,
    `PUT /tests/${type}/{testId}`,
    `DELETE /tests/${type}/{testId}`,
  ]),
  'GET /agents',
  'GET /agents/{agentId}',
  'DELETE /agents/{agentId}',
  'GET /alerts/rules',
  'GET /alerts/rules/{ruleId}',
  'POST /alerts/rules',
  'PUT /alerts/rules/{ruleId}',
  'DELETE /alerts/rules/{ruleId}',
  'GET /alerts',
  'GET /alert-suppression-windows',
  'GET /alert-suppression-windows/{windowId}',
  'POST /alert-suppression-windows',
  'PUT /alert-suppression-windows/{windowId}',
  'DELETE /alert-suppression-windows/{windowId}',
  'GET /operations/webhooks',
  'GET /dashboards',
  'GET /dashboards/{dashboardId}',
  'POST /dashboards',
  'PUT /dashboards/{dashboardId}',
  'DELETE /dashboards/{dashboardId}',
  'GET /dashboards/{dashboardId}/widgets/{widgetId}',
  'GET /tags',
  'POST /tags',
  'POST /tags/{id}/assign',
  'GET /usage',
  'GET /quotas',
  'GET /endpoint/agents',
  'GET /endpoint/tests/scheduled-tests',
  'GET /endpoint/tests/dynamic-tests/agent-to-server',
  'GET /endpoint/labels',
  ...ENDPOINT_WRITE_OPERATIONS,
  ...MEASURED_OPERATIONS,
  ...REVIEW_OPERATIONS,
];

const documentPath = findOpenApiDocument();

if (!documentPath) {
  // Plainly, not silently: say what is missing and how to provide it.
  console.warn(
    'Platform contract suite NOT RUN: the OpenAPI document was not found at ../shared/te-api/openapi/unified-7.0.100/api.yaml; set TE_OPENAPI_SPEC to its path.',
  );
  if (process.env.CI) throw new Error('The platform OpenAPI document is required in CI (set TE_OPENAPI_SPEC).');
}

describe.runIf(documentPath)('the sandbox and the client honour the published v7 contract', () => {
  let started: Awaited<ReturnType<typeof startSandbox>>;
  let validator: OpenApiValidator;
  const exchanges: Exchange[] = [];

  /** A fetch that records what the client sent and what the sandbox answered. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const response = await fetch(input, init);
    const text = await response.clone().text();
    exchanges.push({
      method: init?.method ?? 'GET',
      pathname: url.pathname.replace(/^\/sandbox\/te\/v7/, ''),
      requestBody: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      responseBody: text ? JSON.parse(text) : undefined,
    });
    return response;
  };

  const session = (token: string): PlatformSession =>
    new PlatformClient({ baseUrl: started.baseUrl, fetch: recordingFetch, timeoutMs: 10_000 }).as({ token });

  beforeAll(async () => {
    validator = new OpenApiValidator(documentPath ?? '');
    started = await startSandbox();
    const admin = session(started.token('org-admin'));
    const groups = await admin.accountGroups.list();
    const aid = groups[1]?.aid ?? '';
    await admin.accountGroups.get(aid, ['user', 'agent']);
    const users = await admin.users.list(aid);
    await admin.users.get(users[0]?.uid ?? '', aid);
    await admin.users.current();
    await admin.users.invite(
      {
        name: 'New Person',
        email: 'new.person@acme.example.com',
        loginAccountGroupId: aid,
        accountGroupRoles: [{ accountGroupId: aid, roleIds: ['3'] }],
      },
      aid,
    );
    await admin.roles.list(aid);
    await admin.roles.get('1', aid);
    for await (const _event of admin.auditUserEvents.list({ aid, range: { window: '30d' } })) break;

    await admin.tests.list(aid);
    const cloud = (await admin.agents.list({ aid, agentTypes: ['cloud'], expand: ['test-ids'] })).slice(0, 2);
    const agents = cloud.map((agent) => ({ agentId: agent.agentId }));
    const bodies: Record<PlatformTestType, TestCreateBody> = {
      'http-server': {
        testName: 'Contract HTTP',
        interval: 300,
        alertsEnabled: true,
        enabled: true,
        description: '',
        agents,
        url: 'https://example.com',
      },
      'page-load': {
        testName: 'Contract page load',
        interval: 600,
        alertsEnabled: true,
        description: '',
        agents,
        url: 'https://example.com',
      },
      'dns-server': {
        testName: 'Contract DNS server',
        interval: 300,
        alertsEnabled: false,
        description: '',
        agents,
        domain: 'example.com',
        dnsServers: ['ns1.example.net'],
      },
      'dns-trace': {
        testName: 'Contract DNS trace',
        interval: 300,
        alertsEnabled: true,
        description: '',
        agents,
        domain: 'example.com',
      },
      'agent-to-server': {
        testName: 'Contract network',
        interval: 60,
        alertsEnabled: true,
        description: '',
        agents,
        server: 'example.com',
        port: 443,
        protocol: 'tcp',
      },
      bgp: { testName: 'Contract BGP', alertsEnabled: true, description: '', prefix: '203.0.113.0/24' },
    };
    for (const [type, body] of Object.entries(bodies) as [PlatformTestType, TestCreateBody][]) {
      await admin.tests.listByType(type, aid);
      const created = await admin.tests.create(type, body, aid);
      await admin.tests.get(type, created.testId, {
        aid,
        expand: type === 'bgp' ? ['alert-rule'] : ['agent', 'alert-rule'],
      });
      await admin.tests.update(type, created.testId, { description: 'updated by the contract suite' }, aid);
      await admin.tests.delete(type, created.testId, aid);
    }

    const enterprise = await admin.agents.list({ aid, agentTypes: ['enterprise'] });
    await admin.agents.get(enterprise[0]?.agentId ?? '', aid);
    const unused = started.sandbox.platform.world.agents.find(
      (agent) =>
        agent.aids.includes(aid) &&
        !started.sandbox.platform.world.tests.some((test) => test.agentIds.includes(agent.agentId)),
    );
    const used = enterprise.find((agent) => agent.agentId !== unused?.agentId);
    if (unused) await admin.agents.delete(unused.agentId, aid);
    await admin.agents.delete(used?.agentId ?? '', aid).catch(() => undefined);

    const rules = await admin.alertRules.list(aid);
    await admin.alertRules.get(rules[0]?.ruleId ?? '', aid);
    const ruleTests = (await admin.tests.list(aid)).slice(0, 2).map((test) => test.testId);
    const ruleBody = {
      ruleName: 'Contract rule',
      expression: '((errorType != "None"))',
      alertType: 'http-server',
      roundsViolatingOutOf: 3,
      roundsViolatingRequired: 2,
      roundsViolatingMode: 'exact',
      severity: 'major',
      testIds: ruleTests,
      notifications: { email: { recipients: ['noc@example.com'], message: '' } },
    };
    const rule = await admin.alertRules.create(ruleBody, aid);
    const readBack = await admin.alertRules.get(rule.ruleId, aid);
    expect([readBack.ruleName, readBack.testIds, readBack.roundsViolatingRequired]).toEqual([
      'Contract rule',
      ruleTests,
      2,
    ]);
    await admin.alertRules.update(rule.ruleId, { ...ruleBody, ruleName: 'Contract rule, renamed', testIds: [] }, aid);
    expect((await admin.alertRules.get(rule.ruleId, aid)).ruleName).toBe('Contract rule, renamed');
    await admin.alertRules.delete(rule.ruleId, aid);
    await expect(admin.alertRules.get(rule.ruleId, aid)).rejects.toMatchObject({ status: 404 });
    await expect(
      admin.alertRules.create({ ...ruleBody, ruleName: '', testIds: ['no-such-test'] }, aid),
    ).rejects.toMatchObject({
      status: 400,
    });
    for await (const _alert of admin.alerts.list({ aid, range: { window: '90d' }, max: 5 })) break;

    const windows = await admin.alertSuppressionWindows.list(aid);
    await admin.alertSuppressionWindows.get(windows[0]?.alertSuppressionWindowId ?? '', aid);
    const window = await admin.alertSuppressionWindows.create(
      {
        name: 'Contract window',
        isEnabled: true,
        startDate: '2026-12-01T02:00:00Z',
        duration: 7200,
        repeat: { type: 'week', intervalLength: 1, daysOfWeek: ['sun'] },
        endRepeat: { type: 'never' },
        testIds: [],
      },
      aid,
    );
    const renamed = await admin.alertSuppressionWindows.update(
      window.alertSuppressionWindowId,
      {
        name: 'Contract window, renamed',
        isEnabled: true,
        startDate: '2026-12-01T02:00:00Z',
        duration: 3600,
        testIds: [],
      },
      aid,
    );
    expect(renamed.name).toBe('Contract window, renamed');
    await admin.alertSuppressionWindows.delete(window.alertSuppressionWindowId, aid);
    await expect(admin.alertSuppressionWindows.get(window.alertSuppressionWindowId, aid)).rejects.toMatchObject({
      status: 404,
    });
    const webhookGroup = (await admin.accountGroups.list()).find(
      (group) => group.accountGroupName === 'Acme - Data Centers',
    );
    expect((await admin.webhooks.list(webhookGroup?.aid)).map((hook) => hook.name)).toEqual([
      'NOC webhook',
      'Legacy pager bridge',
    ]);

    const dashboards = await admin.dashboards.list(aid);
    const dashboard = await admin.dashboards.get(dashboards[0]?.dashboardId ?? '', aid);
    await admin.dashboards.widget(dashboard.dashboardId, dashboard.widgets?.[0]?.id ?? '', aid);
    const created = await admin.dashboards.create(
      {
        title: 'Contract dashboard',
        description: 'Created by the contract suite',
        isPrivate: false,
        widgets: [
          {
            type: 'Number',
            title: 'Availability',
            visualMode: 'Half screen',
            dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
            metricGroup: 'HTTP_SERVER',
            metric: 'WEB_AVAILABILITY',
          },
        ],
      },
      aid,
    );
    const widgetId = created.widgets?.[0]?.id ?? '';
    await admin.dashboards.update(
      created.dashboardId,
      {
        title: 'Contract dashboard',
        widgets: [{ id: widgetId, type: 'Number', title: 'Availability', filters: { TEST: ['5187'] } }],
        layout: { type: 'grid', details: { widgetPositioning: [{ id: widgetId, x: 0, y: 0, w: 6, h: 4 }] } },
      },
      aid,
    );
    await admin.dashboards.delete(created.dashboardId, aid);
    await expect(admin.dashboards.get(created.dashboardId, aid)).rejects.toMatchObject({ status: 404 });

    await admin.tags.list(aid);
    const tag = await admin.tags.create({ key: 'contract', value: 'yes', objectType: 'test', color: '#2ca02c' }, aid);
    const someTest = (await admin.tests.list(aid))[0];
    await admin.tags.assign(tag.id, [{ id: someTest?.testId ?? '', type: 'test' }], aid);

    await admin.usage.get({ aid, expand: ['test'] });
    await admin.usage.quotas();
    for await (const _agent of admin.endpointAgents.list(aid)) break;
    await admin.endpointTests.listScheduled(aid);
    await admin.endpointTests.listDynamic(aid);
    for await (const _label of admin.endpointLabels.list(aid)) break;
    await exerciseEndpointWrites(admin, aid);
    await exerciseMeasured(admin, {
      readOnly: session(started.token('read-only')),
      unpriced: session(started.token('org-admin', 1)),
    });
    await exerciseReview(admin);

    // Error answers are part of the contract too.
    await admin.tests
      .create('http-server', { testName: '', interval: 7, agents: [] }, aid)
      .catch((error: unknown) => expect(error).toBeInstanceOf(PlatformError));
    await session(started.token('revoked'))
      .accountGroups.list()
      .catch(() => undefined);
    await session(started.token('read-only'))
      .users.list()
      .catch(() => undefined);
    await admin.tests.get('http-server', '999999999', { aid }).catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    await started?.close();
  });

  it('exercised every operation the client uses', () => {
    const covered = new Set(
      exchanges.map((exchange) => {
        const operation = validator.find(exchange.method, exchange.pathname);
        return operation
          ? `${operation.method} ${operation.template}`
          : `UNDOCUMENTED ${exchange.method} ${exchange.pathname}`;
      }),
    );
    console.log(`Contract suite covered ${covered.size} operations:\n  ${[...covered].sort().join('\n  ')}`);
    expect([...covered].filter((operation) => operation.startsWith('UNDOCUMENTED'))).toEqual([]);
    expect(CLIENT_OPERATIONS.filter((operation) => !covered.has(operation))).toEqual([]);
  });

  it('sent only request bodies the document accepts', () => {
    const problems = exchanges
      .filter((exchange) => exchange.requestBody !== undefined && exchange.status < 400)
      .flatMap((exchange) => {
        const operation = validator.find(exchange.method, exchange.pathname);
        return operation
          ? validator
              .validateRequest(operation, exchange.requestBody)
              .map((problem) => `${exchange.method} ${exchange.pathname}: ${problem}`)
          : [];
      });
    expect(problems).toEqual([]);
  });

  it('got only answers the document describes, errors included', () => {
    const statuses = new Set(exchanges.map((exchange) => exchange.status));
    expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 204, 400, 401, 403, 404]));
    const problems = exchanges.flatMap((exchange) => {
      const operation = validator.find(exchange.method, exchange.pathname);
      if (!operation) return [];
      return validator
        .validateResponse(operation, exchange.status, exchange.contentType, exchange.responseBody)
        .map((problem) => `${exchange.method} ${exchange.pathname} ${exchange.status}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });
});
