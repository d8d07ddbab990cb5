import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiOperation, ExplorerAnswer } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import {
  createTestApp,
  ANSWER_SUITE_DATABASES,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)('the API explorer (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let superUser: TestClient;
  let token: string;
  const call = (client: TestClient, payload: Record<string, unknown>) =>
    client.request({ method: 'POST', url: '/api/explorer/call', payload: { token, ...payload } });

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    token = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("lists the sandbox's operations from the document made of its own routes", async () => {
    const response = await tam.request({ method: 'GET', url: '/api/explorer/operations' });
    expect(response.statusCode, response.body).toBe(200);
    const { source, operations } = response.json<{ source: string; operations: ApiOperation[] }>();
    expect(source).toMatch(/\/sandbox\/te\/openapi\.json$/);
    expect(
      operations.find((operation) => operation.method === 'GET' && operation.path === '/account-groups'),
    ).toMatchObject({ method: 'GET', path: '/account-groups', parameters: [] });
    const alerts = operations.find((operation) => operation.method === 'GET' && operation.path === '/alerts');
    expect(alerts?.parameters.map((parameter) => parameter.name)).toEqual([
      'aid',
      'window',
      'startDate',
      'endDate',
      'max',
    ]);
    const test = operations.find(
      (operation) => operation.method === 'GET' && operation.path === '/tests/http-server/{testId}',
    );
    expect(test?.parameters[0]).toMatchObject({ name: 'testId', in: 'path', required: true });
  });

  it('reads account groups with the status, rate-limit headers, time and a curl without the token', async () => {
    const operations = (await tam.request({ method: 'GET', url: '/api/explorer/operations' })).json<{
      operations: ApiOperation[];
    }>().operations;
    const id = operations.find((operation) => operation.method === 'GET' && operation.path === '/account-groups')?.id;
    // The platform takes its time: the answer says how long, and never more than the test waited.
    const platform = testApp.sandbox?.platform;
    const normal = { ...platform?.scenario };
    platform?.setScenario({ ...platform.scenario, latencyMs: 40 });
    const sentAt = Date.now();
    const response = await call(tam, { operationId: id }).finally(() => {
      if (platform) platform.setScenario({ ...platform.scenario, ...normal });
    });
    const wall = Date.now() - sentAt;
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ExplorerAnswer>();
    expect(answer.status).toBe(200);
    expect((answer.body as { accountGroups: unknown[] }).accountGroups.length).toBeGreaterThan(0);
    expect(answer.headers['x-organization-rate-limit-limit']).toMatch(/^\d+$/);
    expect(answer.durationMs).toBeGreaterThanOrEqual(40);
    expect(answer.durationMs).toBeLessThanOrEqual(wall);
    expect(answer.curl).toContain('Authorization: Bearer $TE_TOKEN');
    expect(response.body).not.toContain(token);
  });

  it('follows the next page of a paginated answer', async () => {
    const operations = (await tam.request({ method: 'GET', url: '/api/explorer/operations' })).json<{
      operations: ApiOperation[];
    }>().operations;
    const id = operations.find((operation) => operation.method === 'GET' && operation.path === '/alerts')?.id;
    const first = (
      await call(tam, { operationId: id, query: { window: '90d', max: '2', unknown: 'dropped' } })
    ).json<ExplorerAnswer>();
    expect(first.url).toContain('max=2');
    expect(first.url).not.toContain('unknown');
    expect((first.body as { alerts: unknown[] }).alerts).toHaveLength(2);
    expect(first.nextHref).toContain('cursor=');
    const second = (await call(tam, { operationId: id, nextHref: first.nextHref })).json<ExplorerAnswer>();
    expect(second.status).toBe(200);
    expect((second.body as { alerts: { id?: string; alertId?: string }[] }).alerts).toHaveLength(2);
    expect(second.body).not.toEqual(first.body);
    const outside = await call(tam, { operationId: id, nextHref: 'https://example.com/v7/alerts?cursor=x' });
    expect(outside.statusCode).toBe(400);
  });

  it('writes only for Super Users, after a confirmation, and audits them', async () => {
    const operations = (await tam.request({ method: 'GET', url: '/api/explorer/operations' })).json<{
      operations: ApiOperation[];
    }>().operations;
    const id = operations.find((operation) => operation.method === 'POST' && operation.path === '/tags')?.id;
    const body = { key: 'explorer', value: kind, objectType: 'test', color: '#1f77b4' };
    expect((await call(tam, { operationId: id, body, confirm: true })).statusCode).toBe(403);
    const unconfirmed = await call(superUser, { operationId: id, body });
    expect(unconfirmed.json().error.message).toBe('Confirm the write before it is sent');
    const written = (await call(superUser, { operationId: id, body, confirm: true })).json<ExplorerAnswer>();
    expect(written.status).toBe(201);
    expect(testApp.sandbox?.platform.world.tags.some((tag) => tag.key === 'explorer' && tag.value === kind)).toBe(true);
    const audit = (await superUser.request({ method: 'GET', url: '/api/audit-log' })).json().entries[0];
    expect(audit).toMatchObject({ action: 'api.write', target: expect.stringMatching(/^POST .*\/tags$/) });
  });

  it("refuses '.' and '..' as path parameters: a value cannot climb the platform's paths", async () => {
    const operations = (await tam.request({ method: 'GET', url: '/api/explorer/operations' })).json<{
      operations: ApiOperation[];
    }>().operations;
    const withId = operations.find(
      (operation) => operation.method === 'GET' && /^\/dashboards\/\{[^}]+\}$/.test(operation.path),
    );
    if (!withId) throw new Error('the sandbox document has GET /dashboards/{id}');
    const name = /\{([^}]+)\}/.exec(withId.path)?.[1] ?? '';
    const before = testApp.sandbox?.platform.calls.length ?? 0;
    for (const value of ['..', '.', ' .. ']) {
      const refused = await call(tam, { operationId: withId.id, pathParams: { [name]: value }, query: {} });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe(`${name} cannot be '.' or '..'`);
    }
    expect(testApp.sandbox?.platform.calls.length ?? 0).toBe(before);
  });

  it('audits a write before it is sent and again with its result, whatever the result', async () => {
    const operations = (await superUser.request({ method: 'GET', url: '/api/explorer/operations' })).json<{
      operations: ApiOperation[];
    }>().operations;
    const id = operations.find((operation) => operation.method === 'POST' && operation.path === '/tags')?.id;
    const platform = testApp.sandbox?.platform;
    const scenario = platform?.scenario;
    const entries = async () =>
      (await superUser.request({ method: 'GET', url: '/api/audit-log' })).json<{
        entries: { action: string; target: string; detail?: Record<string, unknown> }[];
      }>().entries;
    const before = (await entries()).length;
    // A slow platform that then fails: the first row is there while the write is on its way.
    platform?.setScenario({
      ...DEFAULT_SCENARIO,
      latencyMs: 1500,
      errorRate: 1,
      errorStatus: 503,
      errorMethod: 'POST',
    });
    try {
      const pending = call(superUser, {
        operationId: id,
        body: { key: 'explorer-failed', value: kind, objectType: 'test', color: '#1f77b4' },
        confirm: true,
      });
      const whileSent = await vi.waitFor(
        async () => {
          const now = await entries();
          expect(now.length).toBe(before + 1);
          return now;
        },
        { timeout: 1400, interval: 50 },
      );
      expect(whileSent[0]).toMatchObject({
        action: 'api.write.sent',
        target: expect.stringMatching(/^POST .*\/tags$/),
      });
      const answered = await pending;
      expect(answered.json<ExplorerAnswer>().status).toBe(503);
    } finally {
      if (scenario) platform?.setScenario(scenario);
    }
    const [after, sent] = await entries();
    expect(sent?.action).toBe('api.write.sent');
    expect(after).toMatchObject({ action: 'api.write', target: sent?.target });
    expect(JSON.stringify(after)).toContain('503');
  });
});

describe('the API explorer with a document address holding credentials', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', {
      PLATFORM_OPENAPI_URL: 'http://reader:s3cret-pass@127.0.0.1:9/specs/api.yaml?key=abc123#top',
    });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('shows only its origin and path, never the credentials or the query', async () => {
    const tam = await signedInClient(testApp.app, 'tam@demo.local');
    const answer = await tam.request({ method: 'GET', url: '/api/explorer/operations' });
    expect(answer.statusCode).toBe(502);
    expect(answer.json().error.message).toBe(
      'The API document could not be read from http://127.0.0.1:9/specs/api.yaml.',
    );
    expect(answer.body).not.toMatch(/s3cret|reader|abc123/);
  });
});
