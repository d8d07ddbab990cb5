import { describe, expect, it } from 'vitest';
import { PlatformClient } from './client.js';
import { PlatformHttp } from './http.js';
import { backoffMs, readBackoffMs } from './retry-policy.js';
import { RateLimiterRegistry } from './rate-limiter.js';

describe('waits between attempts', () => {
  it('for creations: 2^attempt x 100 ms plus up to 100 ms of jitter, capped at 300 s', () => {
    expect([1, 2, 3].map((attempt) => backoffMs(attempt, () => 0))).toEqual([200, 400, 800]);
    expect(backoffMs(1, () => 0.999)).toBe(299);
    expect(backoffMs(30, () => 0.5)).toBe(300_000);
  });

  it('for reads: from 200 ms doubling to 10 s, half of each wait random', () => {
    expect([1, 2, 3, 4, 7, 20].map((attempt) => readBackoffMs(attempt, () => 1))).toEqual([
      200, 400, 800, 1600, 10_000, 10_000,
    ]);
    expect(readBackoffMs(1, () => 0)).toBe(100);
    expect(readBackoffMs(5, () => 0.5)).toBe(2_400);
  });
});

describe('429 answers', () => {
  /** A clock that moves only when the client sleeps, and a platform that refuses as told. */
  const setup = (answers: (() => Response)[], rateLimitWaitBudgetMs?: number) => {
    let now = 1_700_000_000_000;
    const slept: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
    let calls = 0;
    const fetch: typeof globalThis.fetch = async () =>
      (answers[Math.min(calls++, answers.length - 1)] ?? answers[0]!)();
    const http = new PlatformHttp({ baseUrl: 'https://api.example/v7', fetch, clock, rateLimitWaitBudgetMs });
    return { http, slept, calls: () => calls, now: () => now };
  };
  const refused =
    (headers: Record<string, string> = {}) =>
    () =>
      new Response('{"message":"Too Many Requests"}', { status: 429, headers });
  const ok = () => () =>
    new Response('{"fine":true}', { status: 200, headers: { 'content-type': 'application/json' } });

  it('waits at least what Retry-After says, in seconds or as a date', async () => {
    const seconds = setup([refused({ 'retry-after': '90' }), ok()]);
    await expect(seconds.http.call({ token: 't' }, 'tests')).resolves.toEqual({ fine: true });
    expect(seconds.slept.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(90_000);

    const later = new Date(1_700_000_000_000 + 120_000).toUTCString();
    const date = setup([refused({ 'retry-after': later }), ok()]);
    await date.http.call({ token: 't' }, 'tests');
    expect(date.slept.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(120_000);
  });

  it('gives up after its wait budget instead of waiting without end, with a plain message', async () => {
    const storm = setup([refused({ 'retry-after': '60' })], 5 * 60_000);
    await expect(storm.http.call({ token: 't' }, 'tests')).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/kept refusing calls for its rate limit/),
    });
    // It waited out the storm as long as the budget allowed, and not a minute more.
    expect(storm.now() - 1_700_000_000_000).toBeLessThanOrEqual(5 * 60_000);
    expect(storm.calls()).toBeGreaterThanOrEqual(4);
  });

  it('refuses at once a Retry-After longer than the whole budget', async () => {
    const long = setup([refused({ 'retry-after': '7200' })], 10 * 60_000);
    await expect(long.http.call({ token: 't' }, 'tests')).rejects.toMatchObject({ status: 429 });
    expect(long.calls()).toBe(1);
    expect(long.slept).toEqual([]);
  });
});

describe('one budget per organization', () => {
  const resetAt = Math.ceil(Date.now() / 1000) + 60;
  /** A platform whose account groups name the organizations given, counting down one window of 10. */
  const setup = (orgIds: string[]) => {
    let remaining = 10;
    const fetch: typeof globalThis.fetch = async (input) => {
      remaining -= 1;
      const headers = {
        'content-type': 'application/json',
        'x-organization-rate-limit-limit': '10',
        'x-organization-rate-limit-remaining': String(remaining),
        'x-organization-rate-limit-reset': String(resetAt),
      };
      const body = String(input).includes('/account-groups')
        ? {
            accountGroups: orgIds.map((orgId, index) => ({
              aid: `${index}`,
              accountGroupName: `Group ${index}`,
              orgId,
            })),
          }
        : { tests: [] };
      return new Response(JSON.stringify(body), { status: 200, headers });
    };
    const limiters = new RateLimiterRegistry();
    const client = new PlatformClient({ baseUrl: 'https://api.example/v7', fetch, limiters });
    return { client, limiters };
  };

  it("spends the organization's budget once the token's account groups named it, counting that first call there", async () => {
    const { client, limiters } = setup(['o-1', 'o-1']);
    const session = client.as({ token: 'customer-token' });
    expect(client.http.limiterKey(session.auth)).toMatch(/^token:/);
    await session.accountGroups.list();
    expect(client.http.limiterKey(session.auth)).toBe('org:o-1');
    // The token's first call counts in the organization's budget: the platform counted it there.
    expect(limiters.for('org:o-1').snapshot()).toMatchObject({ limit: 10, remaining: 9, inFlight: 0 });
    await client.http.call(session.auth, 'tests');
    expect(limiters.for('org:o-1').snapshot()).toMatchObject({ remaining: 8, inFlight: 0 });
    // A job's session names the organization itself: the same budget.
    expect(client.http.limiterKey({ token: 'customer-token', organizationId: 'o-1' })).toBe('org:o-1');
  });

  it('keeps the token key when the account groups name several organizations', async () => {
    const { client } = setup(['o-1', 'o-2']);
    const session = client.as({ token: 'customer-token' });
    await session.accountGroups.list();
    expect(client.http.limiterKey(session.auth)).toMatch(/^token:/);
  });
});

describe("a job's check before each write", () => {
  /** A platform that records what it was sent; the limiters are kept to read their slots. */
  const setup = () => {
    const events: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      events.push(`sent ${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return new Response(JSON.stringify({ tests: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const limiters = new RateLimiterRegistry();
    const http = new PlatformHttp({ baseUrl: 'https://api.example/v7', fetch, limiters });
    return { http, events, limiters };
  };

  it('runs after the rate slot and right before a write is sent, never for a read', async () => {
    const { http, events, limiters } = setup();
    const auth = {
      token: 't',
      organizationId: 'o-1',
      beforeWrite: async () => {
        // The slot is already this call's: the check is the last thing between it and the send.
        events.push(`checked with ${limiters.for('org:o-1').snapshot().inFlight} in flight`);
      },
    };
    await http.call(auth, 'tests');
    await http.call(auth, 'tests/bgp', { method: 'POST', body: {} });
    expect(events).toEqual(['sent GET /v7/tests', 'checked with 1 in flight', 'sent POST /v7/tests/bgp']);
  });

  it('sends nothing when the check refuses, and gives the slot back unspent', async () => {
    const { http, events, limiters } = setup();
    const lost = new Error('lease lost');
    const auth = { token: 't', organizationId: 'o-1', beforeWrite: () => Promise.reject(lost) };
    await expect(http.call(auth, 'tests/bgp', { method: 'POST', body: {} })).rejects.toBe(lost);
    await expect(http.exchange(auth, new URL('https://api.example/v7/tests/1'), { method: 'DELETE' })).rejects.toBe(
      lost,
    );
    expect(events).toEqual([]);
    expect(limiters.for('org:o-1').snapshot()).toMatchObject({ inFlight: 0 });
  });
});
