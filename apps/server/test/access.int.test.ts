import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  can,
  CAPABILITY_LABELS,
  DEMO_ACCOUNTS,
  OPERATION_ACCESS,
  ROLES,
  SESSION_ONLY_OPERATIONS,
  type OperationId,
  type Role,
} from '@ce/contract';
import { createTestApp, ANSWER_SUITE_DATABASES, signedInClient, TestClient, type TestApp } from './build-test-app.js';

interface Operation {
  method: string;
  url: string;
  operationId: OperationId;
}

const demoEmailFor = (role: Role) => DEMO_ACCOUNTS.find((account) => account.role === role)?.email ?? '';

describe.each(ANSWER_SUITE_DATABASES)('every API operation enforces the role matrix (%s)', (kind) => {
  let testApp: TestApp;
  let operations: Operation[];
  let document: {
    paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, unknown> } }>>;
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
    operations = Object.entries(document.paths).flatMap(([url, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        // Path parameters get a well-formed but unknown value: access is decided before lookup.
        url: url.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        operationId: operation.operationId as OperationId,
      })),
    );
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('describes the three multipart uploads: their fields and file parts', () => {
    const form = (path: string) =>
      document.paths[path]?.post?.requestBody?.content['multipart/form-data'] as
        { schema: { required: string[]; properties: Record<string, { type: string; format?: string }> } } | undefined;
    const binary = { type: 'string', format: 'binary' };
    expect(form('/api/tracker/parse')?.schema.required).toEqual(['file', 'selectedDate']);
    expect(form('/api/tracker/parse')?.schema.properties.file).toMatchObject(binary);
    expect(form('/api/tracker/parse')?.schema.properties.selectedDate).toMatchObject({
      type: 'string',
      format: 'date',
    });
    expect(form('/api/pcap')?.schema.properties.file).toMatchObject(binary);
    const clone = form('/api/community-dashboards')?.schema;
    expect(clone?.required).toEqual(
      expect.arrayContaining(['token', 'dashboardId', 'description', 'screenshot1', 'screenshot2', 'screenshot3']),
    );
    for (const part of ['screenshot1', 'screenshot2', 'screenshot3'])
      expect(clone?.properties[part]).toMatchObject(binary);
  });

  it('documents exactly the operations of the access table, each with an operationId', () => {
    const documented = operations.map((operation) => operation.operationId).sort();
    expect(documented).toEqual(Object.keys(OPERATION_ACCESS).sort());
  });

  it('answers 401 to a caller without a session, except on public operations', async () => {
    for (const operation of operations) {
      const client = new TestClient(testApp.app);
      const response = await client.request({ method: operation.method as 'GET', url: operation.url, payload: {} });
      const capability = OPERATION_ACCESS[operation.operationId];
      if (can(null, capability)) {
        expect([401, 403], `${operation.operationId} is public`).not.toContain(response.statusCode);
        expect(response.statusCode, `${operation.operationId} answered ${response.body}`).toBeLessThan(500);
      } else {
        expect(response.statusCode, `${operation.method} ${operation.url} without a session`).toBe(401);
        expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
      }
    }
  });

  it.each(ROLES)('lets %s call exactly what the matrix allows', async (role) => {
    let client = await signedInClient(testApp.app, demoEmailFor(role));
    for (const operation of operations) {
      // Signing out must not affect the next call: a client whose session ended signs in again. (Not a sign-in per
      // call: each costs an argon2 hash, a thousand of them were most of the integration tier's time.)
      if (!client.sessionId) client = await signedInClient(testApp.app, demoEmailFor(role));
      const response = await client.request({ method: operation.method as 'GET', url: operation.url, payload: {} });
      const allowed = can(role, OPERATION_ACCESS[operation.operationId]);
      const label = `${role} -> ${operation.method} ${operation.url} answered ${response.statusCode}`;
      if (allowed) {
        // Let through: answered, or refused for what was sent (an empty body), never for who sent it or by a crash.
        expect([401, 403], label).not.toContain(response.statusCode);
        expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
      } else expect(response.statusCode, label).toBe(403);
    }
  });

  it('lets a personal API token call exactly what it carries, and names what is missing: the token, or the role', async () => {
    const tam = await signedInClient(testApp.app, demoEmailFor('TAM'));
    const made = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Walker', expiresInDays: 1, capabilities: ['customerToken'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = made.json<{ secret: string }>();
    for (const operation of operations) {
      const response = await testApp.app.inject({
        method: operation.method as 'GET',
        url: operation.url,
        headers: { authorization: `Bearer ${secret}` },
        payload: {},
      });
      const capability = OPERATION_ACCESS[operation.operationId];
      const label = `${operation.method} ${operation.url} (${operation.operationId}) answered ${response.statusCode}`;
      const refusal = [response.statusCode, response.json<{ error?: { message: string } }>()?.error?.message];
      if (SESSION_ONLY_OPERATIONS.has(operation.operationId))
        expect(refusal, label).toEqual([
          403,
          'Sign in to do this: personal API tokens cannot manage users, sessions, passwords or tokens.',
        ]);
      else if (!can('TAM', capability)) expect(refusal, label).toEqual([403, 'You do not have permission to do this']);
      else if (operation.operationId === 'listReports')
        // Every report kind needs a capability this token does not carry (a session lists its own reports).
        expect(refusal, label).toEqual([403, 'This token does not carry Health checks, Reports or Tools.']);
      else if (capability === 'public' || capability === 'signedIn' || capability === 'customerToken') {
        expect([401, 403], `${label}: ${response.body}`).not.toContain(response.statusCode);
        expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
      } else expect(refusal, label).toEqual([403, `This token does not carry ${CAPABILITY_LABELS[capability]}.`]);
    }
  });
});
