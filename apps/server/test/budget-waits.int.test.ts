import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { budgetWaitLine, type BudgetWait } from '@ce/contract';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './build-test-app.js';
import { HttpClient } from './child-server.js';

// A person's request waiting for a customer's API budget, over real HTTP: told in words while it waits (whichever
// request asks), and cancelled by its browser, after which it sends nothing to the platform.
describe("a person waiting for a customer's API budget", () => {
  let testApp: TestApp;
  let browser: HttpClient;
  let token = '';
  const LIMIT = 3;
  const WINDOW_MS = 6_000;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    const url = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    browser = new HttpClient(url);
    await browser.call('GET', '/api/app-info');
    expect(
      (await browser.call('POST', '/api/session', { email: 'tam@demo.local', password: DEMO_PASSWORD })).status,
    ).toBe(200);
    token = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const platform = () => {
    if (!testApp.sandbox) throw new Error('the test app runs the embedded sandbox');
    return testApp.sandbox.platform;
  };
  const waitOf = async (requestId: string) =>
    (await browser.call('GET', `/api/budget-waits/${requestId}`)).body as BudgetWait;

  it('says whose budget and about how long, then ends the request and its queued calls when the browser cancels', async () => {
    // A small, short window; the token check names the organization and spends the window with two more reads.
    const normal = { ...platform().scenario };
    platform().setScenario({ ...platform().scenario, rateLimitPerMinute: LIMIT, windowMs: WINDOW_MS });
    try {
      const spend = () => browser.call('POST', '/api/account-groups', { token });
      for (let call = 0; call < LIMIT; call++) expect((await spend()).status).toBe(200);

      const requestId = 'wait-test-0123456789';
      const controller = new AbortController();
      const waiting = browser
        .call(
          'POST',
          '/api/account-groups',
          { token },
          { signal: controller.signal, headers: { 'x-request-id': requestId } },
        )
        .then(
          () => 'answered',
          () => 'cancelled',
        );
      const told = await vi.waitFor(
        async () => {
          const wait = await waitOf(requestId);
          expect(wait.waiting).toBe(true);
          return wait;
        },
        { timeout: 4_000, interval: 200 },
      );
      expect(told.organizationName).toBe('Acme Corporation');
      expect(told.seconds).toBeGreaterThanOrEqual(1);
      expect(told.seconds).toBeLessThanOrEqual(WINDOW_MS / 1000 + 1);
      expect(budgetWaitLine(told)).toMatch(/^Waiting for Acme Corporation's API budget: about \d s$/);

      const callsBefore = platform().calls.length;
      controller.abort();
      expect(await waiting).toBe('cancelled');
      await vi.waitFor(async () => expect((await waitOf(requestId)).waiting).toBe(false), { timeout: 3_000 });
      // The next check waits for the window to turn; the cancelled one never reaches the platform, then or after.
      expect((await spend()).status).toBe(200);
      expect(platform().calls.length).toBe(callsBefore + 1);
    } finally {
      platform().setScenario(normal);
    }
  }, 60_000);

  it('says how far a request that reads many rules has read, filling as it reads', async () => {
    const normal = { ...platform().scenario };
    const { world } = platform();
    const organization = world.organizations.find((candidate) => candidate.name === 'Acme Corporation');
    const groups = world.accountGroups.filter((group) => group.orgId === organization?.orgId);
    const count = (aid: string) => world.alertRules.filter((rule) => rule.aid === aid).length;
    const group = groups.reduce((most, candidate) => (count(candidate.aid) > count(most.aid) ? candidate : most));
    const rules = count(group.aid);
    expect(rules).toBeGreaterThanOrEqual(8);
    // Each read takes a while: the rules' details take several seconds, read six at a time.
    platform().setScenario({ ...platform().scenario, latencyMs: Math.ceil(9_000 / rules) });
    try {
      const requestId = 'reading-test-0123456789';
      const answered = browser.call(
        'POST',
        '/api/alerts-migration/rules',
        { token, organization: { id: organization?.orgId, name: organization?.name }, aid: group.aid },
        { headers: { 'x-request-id': requestId } },
      );
      const seen: number[] = [];
      await vi.waitFor(
        async () => {
          const { reading } = await waitOf(requestId);
          if (reading) seen.push(reading.done);
          expect(reading).toMatchObject({ noun: 'rule', total: rules });
          expect(reading?.done).toBeGreaterThan(0);
        },
        { timeout: 8_000, interval: 200 },
      );
      expect((await answered).status).toBe(200);
      // It filled as it read, and never past its total.
      expect(seen.every((done, index) => done <= rules && done >= (seen[index - 1] ?? 0))).toBe(true);
    } finally {
      platform().setScenario(normal);
    }
  }, 30_000);

  it("answers only the caller's own requests", async () => {
    const other = new HttpClient(browser.base);
    await other.call('GET', '/api/app-info');
    expect(
      (await other.call('POST', '/api/session', { email: 'proserv@demo.local', password: DEMO_PASSWORD })).status,
    ).toBe(200);
    expect((await other.call('GET', '/api/budget-waits/not-mine-0123456789')).body).toEqual({
      waiting: false,
      organizationName: null,
      seconds: null,
      reading: null,
    });
    expect((await other.call('GET', '/api/budget-waits/bad')).status).toBe(400);
  });
});
