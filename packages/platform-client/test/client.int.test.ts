import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformClient, PlatformError, type PlatformSession } from '../src/index.js';
import { startSandbox } from './start-sandbox.js';

type Started = Awaited<ReturnType<typeof startSandbox>>;

/** Runs `call` and returns the PlatformError it throws, checking the token appears nowhere in it. */
async function failure(call: () => Promise<unknown>, token: string): Promise<PlatformError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    const platformError = error as PlatformError;
    expect(`${platformError.message}\n${platformError.stack ?? ''}\n${JSON.stringify(platformError)}`).not.toContain(
      token,
    );
    return platformError;
  }
  throw new Error('the call succeeded');
}

describe('the platform client against the sandbox', () => {
  let started: Started;
  let client: PlatformClient;
  let admin: PlatformSession;
  let adminToken: string;

  beforeAll(async () => {
    started = await startSandbox();
    adminToken = started.token('org-admin');
  });
  afterAll(async () => {
    await started.close();
  });
  beforeEach(async () => {
    started.sandbox.reset();
    client = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 2_000 });
    admin = client.as({ token: adminToken, organizationId: '9000' });
  });

  it("lists the account groups of the token's organization", async () => {
    const groups = await admin.accountGroups.list();
    expect(groups).toHaveLength(6);
    expect(groups.every((group) => group.organizationName === 'Acme Corporation')).toBe(true);
  });

  it('follows _links.next over three and more pages', async () => {
    const aid = (await admin.accountGroups.list())[0]?.aid;
    const expected = started.sandbox.platform.world.alerts.filter((alert) => alert.aid === aid).length;
    expect(expected).toBeGreaterThan(30);
    const before = started.sandbox.platform.calls.length;
    const alerts = [];
    for await (const alert of admin.alerts.list({ aid, range: { window: '100d' }, max: 10 })) alerts.push(alert);
    expect(alerts).toHaveLength(expected);
    expect(new Set(alerts.map((alert) => alert.id)).size).toBe(expected);
    const pages = started.sandbox.platform.calls.length - before;
    expect(pages).toBe(Math.ceil(expected / 10));
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('creates a test that is then listed, and deletes it', async () => {
    const aid = (await admin.accountGroups.list())[1]?.aid;
    const agents = await admin.agents.list({ aid, agentTypes: ['cloud'] });
    const created = await admin.tests.create(
      'http-server',
      {
        testName: 'Client test',
        interval: 300,
        url: 'https://example.com',
        agents: [{ agentId: agents[0]?.agentId ?? '' }],
      },
      aid,
    );
    expect(created).toMatchObject({ testName: 'Client test', type: 'http-server', url: 'https://example.com' });
    expect((await admin.tests.list(aid)).map((test) => test.testId)).toContain(created.testId);
    await admin.tests.delete('http-server', created.testId, aid);
    expect((await admin.tests.list(aid)).map((test) => test.testId)).not.toContain(created.testId);
  });

  it('maps 401, 403 and 400 to the spec messages, with the field errors', async () => {
    const revoked = started.token('revoked');
    const unauthorized = await failure(() => client.as({ token: revoked }).accountGroups.list(), revoked);
    expect(unauthorized).toMatchObject({ status: 401, message: 'Unauthorized - check your OAuth token' });

    const readOnly = started.token('read-only');
    const forbidden = await failure(
      () =>
        client.as({ token: readOnly }).tests.create('http-server', {
          testName: 'x',
          interval: 300,
          url: 'https://a.example',
          agents: [{ agentId: '100' }],
        }),
      readOnly,
    );
    expect(forbidden).toMatchObject({ status: 403, message: 'Forbidden - insufficient permissions' });

    const badRequest = await failure(
      () => admin.tests.create('agent-to-server', { testName: '', interval: 42, agents: [] }),
      adminToken,
    );
    expect(badRequest.status).toBe(400);
    expect(badRequest.message).toMatch(/^Bad request - check test configuration: /);
    expect(badRequest.fieldErrors.map((error) => error.field)).toEqual(
      expect.arrayContaining(['testName', 'interval', 'agents', 'server']),
    );
  });

  it('retries a read on 5xx until its time budget is spent, then maps the status', async () => {
    const patient = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 2_000, retryBudgetMs: 1_500 }).as({
      token: adminToken,
    });
    for (const [status, message] of [
      [500, 'Platform server error (500)'],
      [503, 'Platform temporarily unavailable (503)'],
      [504, 'Platform gateway timeout (504)'],
    ] as const) {
      started.sandbox.reset();
      await started.setScenario({ errorRate: 1, errorStatus: status });
      const began = Date.now();
      const error = await failure(() => patient.accountGroups.list(), adminToken);
      expect(error).toMatchObject({ status, message });
      // Bounded by time, not by a count of three: more attempts, and no longer than the budget allows.
      expect(started.sandbox.platform.calls.filter((call) => call.status === status).length).toBeGreaterThan(3);
      expect(Date.now() - began).toBeLessThan(1_500 + 1_000);
    }
  });

  it('gets every read through a platform answering half its calls with 500', async () => {
    await started.setScenario({ errorRate: 0.5, errorStatus: 500 });
    const aid = (await admin.accountGroups.list())[0]?.aid;
    const lists = await Promise.all(Array.from({ length: 20 }, () => admin.tests.list(aid)));
    expect(lists.every((tests) => tests.length > 0)).toBe(true);
    expect(started.sandbox.platform.calls.some((call) => call.status === 500)).toBe(true);
  });

  it('answers a read from its journal, and keeps each answer it gets there', async () => {
    const kept = new Map<string, unknown>();
    const journal = {
      get: async (key: string) => (kept.has(key) ? { body: kept.get(key) } : undefined),
      put: async (key: string, body: unknown) => void kept.set(key, body),
    };
    const journaled = client.as({ token: adminToken, journal });
    const first = await journaled.accountGroups.list();
    const calls = started.sandbox.platform.calls.length;
    expect([...kept.keys()]).toEqual([expect.stringMatching(/\/v7\/account-groups$/)]);
    expect(await journaled.accountGroups.list()).toEqual(first);
    expect(started.sandbox.platform.calls.length).toBe(calls);
  });

  it('does not repeat a creation after a 500, where the platform may have acted', async () => {
    await started.setScenario({ errorRate: 1, errorStatus: 500 });
    await failure(() => admin.tests.create('bgp', { testName: 'BGP once', prefix: '203.0.113.0/24' }), adminToken);
    expect(started.sandbox.platform.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('gives up on a read that keeps timing out once its budget is spent', async () => {
    const quick = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 200, retryBudgetMs: 1_000 }).as({
      token: adminToken,
    });
    await started.setScenario({ timeoutRate: 1, hangMs: 1_000 });
    const started_ = Date.now();
    const error = await failure(() => quick.accountGroups.list(), adminToken);
    expect(error.status).toBe(-1);
    expect(error.message).toMatch(/^Request timed out/);
    expect(Date.now() - started_).toBeLessThan(3_000);
  });

  it('never writes the token to its log', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (object: object, message: string) => lines.push(JSON.stringify({ object, message })),
      warn: (object: object, message: string) => lines.push(JSON.stringify({ object, message })),
    };
    const logged = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 2_000, retryBudgetMs: 500, logger }).as({
      token: adminToken,
    });
    await logged.accountGroups.list();
    await started.setScenario({ errorRate: 1, errorStatus: 502 });
    await failure(() => logged.accountGroups.list(), adminToken);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join('\n')).not.toContain(adminToken);
  });

  it('says so when the platform cannot be reached', async () => {
    const nowhere = new PlatformClient({ baseUrl: 'http://127.0.0.1:9/v7', timeoutMs: 1_000, retryBudgetMs: 500 }).as({
      token: adminToken,
    });
    const error = await failure(() => nowhere.accountGroups.list(), adminToken);
    expect(error).toMatchObject({ status: 0, message: 'Network error - cannot reach the platform API' });
  });

  it('loses no call to a 429 storm and never exceeds the limit in a window', async () => {
    await started.setScenario({ rateLimitPerMinute: 10, windowMs: 2_000, storm429Ms: 1_500 });
    const aid = (await admin.accountGroups.list())[0]?.aid;
    const results = await Promise.all(Array.from({ length: 30 }, () => admin.tests.list(aid)));
    expect(results).toHaveLength(30);
    expect(results.every((tests) => tests.length > 0)).toBe(true);
    const windows = started.sandbox.platform.history;
    expect(Math.max(...windows.map((window) => window.count))).toBeLessThanOrEqual(10);
    const accepted = started.sandbox.platform.calls.filter((call) => call.status === 200).length;
    expect(accepted).toBe(31);
  }, 30_000);
});
