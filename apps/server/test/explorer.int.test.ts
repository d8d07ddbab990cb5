import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOperation, ExplorerAnswer } from '@ce/contract';
import { createTestApp, DATABASES, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

describe.each(DATABASES)('the API explorer (%s)', (kind) => {
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
    ).toBeDefined();
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
    const response = await call(tam, { operationId: id });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ExplorerAnswer>();
    expect(answer.status).toBe(200);
    expect((answer.body as { accountGroups: unknown[] }).accountGroups.length).toBeGreaterThan(0);
    expect(answer.headers['x-organization-rate-limit-limit']).toMatch(/^\d+$/);
    expect(answer.durationMs).toBeGreaterThanOrEqual(0);
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
});
