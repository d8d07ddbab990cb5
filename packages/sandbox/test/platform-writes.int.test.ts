import { describe, expect, it } from 'vitest';
import { demoSandbox } from './demo-sandbox.js';

describe('the platform stand-in writes', () => {
  const { app, sandbox } = demoSandbox();

  it('fails only the calls of the chosen method when errorMethod is set', async () => {
    const admin = sandbox().platform.world.tokens.find((token) => token.kind === 'org-admin')?.token;
    const headers = { authorization: `Bearer ${admin}` };
    await app().inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { errorRate: 1, errorMethod: 'POST' } });
    try {
      expect((await app().inject({ url: '/sandbox/te/v7/tests', headers })).statusCode).toBe(200);
      const created = await app().inject({
        method: 'POST',
        url: '/sandbox/te/v7/tests/http-server',
        headers,
        payload: { testName: 'Never created', interval: 300, url: 'https://example.com', agents: [] },
      });
      expect(created.statusCode).toBe(500);
    } finally {
      await app().inject({ method: 'DELETE', url: '/sandbox/te/scenario' });
    }
  });

  it("creates, changes and deletes alert rules, keeping the tests' rule lists in step", async () => {
    const token = (kind: string) => sandbox().platform.world.tokens.find((candidate) => candidate.kind === kind)?.token;
    const headers = { authorization: `Bearer ${token('org-admin')}` };
    const [first, second] = (await app().inject({ url: '/sandbox/te/v7/tests', headers })).json().tests as {
      testId: string;
    }[];
    const linked = (id?: string) =>
      sandbox()
        .platform.world.tests.find((test) => test.testId === id)
        ?.alertRuleIds.includes(ruleId);
    let ruleId = '';
    const body = {
      ruleName: 'Latency above 300 ms',
      expression: '((responseTime > 300 ms))',
      alertType: 'http-server',
      roundsViolatingOutOf: 3,
      testIds: [first?.testId],
      notifications: {
        email: { recipients: ['noc@example.com'] },
        webhook: [{ integrationId: 'wb-1', integrationType: 'webhook' }],
      },
    };
    const created = await app().inject({ method: 'POST', url: '/sandbox/te/v7/alerts/rules', headers, payload: body });
    expect(created.statusCode).toBe(201);
    ruleId = created.json().ruleId as string;
    expect(created.headers.location).toContain(`/alerts/rules/${ruleId}`);
    expect(created.json()).toMatchObject({
      ruleName: 'Latency above 300 ms',
      roundsViolatingRequired: 1,
      isDefault: false,
      testIds: [first?.testId],
      notifications: {
        email: { recipients: ['noc@example.com'] },
        webhook: [{ integrationId: 'wb-1', integrationType: 'webhook' }],
      },
    });
    expect(linked(first?.testId)).toBe(true);

    const moved = await app().inject({
      method: 'PUT',
      url: `/sandbox/te/v7/alerts/rules/${ruleId}`,
      headers,
      payload: { ...body, testIds: [second?.testId], severity: 'critical' },
    });
    expect(moved.json()).toMatchObject({ ruleId, severity: 'critical', testIds: [second?.testId] });
    expect([linked(first?.testId), linked(second?.testId)]).toEqual([false, true]);

    const refused = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/alerts/rules',
      headers,
      payload: { expression: 'x', alertType: 'http-server', roundsViolatingOutOf: 2, testIds: ['none'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.map((error: { field: string }) => error.field)).toEqual(['ruleName', 'testIds']);
    const readOnly = await app().inject({
      method: 'DELETE',
      url: `/sandbox/te/v7/alerts/rules/${ruleId}`,
      headers: { authorization: `Bearer ${token('read-only')}` },
    });
    expect(readOnly.statusCode).toBe(403);

    expect(
      (await app().inject({ method: 'DELETE', url: `/sandbox/te/v7/alerts/rules/${ruleId}`, headers })).statusCode,
    ).toBe(204);
    expect(linked(second?.testId)).toBe(false);
    expect((await app().inject({ url: `/sandbox/te/v7/alerts/rules/${ruleId}`, headers })).statusCode).toBe(404);
  });

  it('reads at once what was written: a new test by id, in its list and by its rule; a deleted one nowhere', async () => {
    const admin = sandbox().platform.world.tokens.find((token) => token.kind === 'org-admin')?.token;
    const headers = { authorization: `Bearer ${admin}` };
    const listed = async () =>
      ((await app().inject({ url: '/sandbox/te/v7/tests', headers })).json().tests as { testId: string }[]).map(
        (test) => test.testId,
      );
    const before = await listed();
    const cloud = sandbox().platform.world.agents.find((agent) => agent.agentType === 'cloud');
    const created = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/tests/http-server',
      headers,
      payload: {
        testName: 'Read at once',
        interval: 300,
        url: 'https://example.com',
        agents: [{ agentId: cloud?.agentId }],
      },
    });
    expect(created.statusCode).toBe(201);
    const testId = created.json().testId as string;
    expect(await listed()).toEqual([...before, testId]);
    const read = await app().inject({ url: `/sandbox/te/v7/tests/http-server/${testId}`, headers });
    expect(read.json()).toMatchObject({ testId, testName: 'Read at once' });
    const rule = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/alerts/rules',
      headers,
      payload: {
        ruleName: 'Names the new test',
        expression: '((responseTime > 300 ms))',
        alertType: 'http-server',
        roundsViolatingOutOf: 1,
        testIds: [testId],
      },
    });
    const ruleId = rule.json().ruleId as string;
    const ruleRead = await app().inject({ url: `/sandbox/te/v7/alerts/rules/${ruleId}`, headers });
    expect(ruleRead.json().tests).toEqual([expect.objectContaining({ testId, testName: 'Read at once' })]);

    const deleted = await app().inject({
      method: 'DELETE',
      url: `/sandbox/te/v7/tests/http-server/${testId}`,
      headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await listed()).toEqual(before);
    expect((await app().inject({ url: `/sandbox/te/v7/tests/http-server/${testId}`, headers })).statusCode).toBe(404);
    expect((await app().inject({ url: `/sandbox/te/v7/alerts/rules/${ruleId}`, headers })).json().tests).toEqual([]);
  });
});
