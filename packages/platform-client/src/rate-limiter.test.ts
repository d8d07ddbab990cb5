import { describe, expect, it } from 'vitest';
import { FALLBACK_429_WAIT_MS } from './rate-headers.js';
import { OrgRateLimiter, RateLimiterRegistry, type Clock } from './rate-limiter.js';

function fakeClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('OrgRateLimiter after a 429', () => {
  it('waits until the Reset a refusal names, even when an earlier guess said later', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    // A 429 without headers: the documented minute.
    expect(limiter.exhausted(undefined)).toBe(FALLBACK_429_WAIT_MS);
    // A later refusal says the window ends in 2 s: that is what counts.
    const resetAt = clock.now() + 2_000;
    expect(limiter.exhausted({ limit: 10, remaining: 0, resetAt })).toBe(2_000);
    expect(limiter.snapshot()).toMatchObject({ limit: 10, remaining: 0, resetAt });
  });

  it('keeps waiting when a refusal carries no usable Reset', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    const resetAt = clock.now() + 5_000;
    limiter.exhausted({ limit: 10, remaining: 0, resetAt });
    // A Reset already past (a late answer from the previous window) is no use: the documented minute applies.
    expect(limiter.exhausted({ limit: 10, remaining: 0, resetAt: clock.now() - 1_000 })).toBe(FALLBACK_429_WAIT_MS);
    clock.advance(FALLBACK_429_WAIT_MS + 1_000);
    await limiter.acquire();
    expect(limiter.snapshot().inFlight).toBe(1);
  });
});

describe('OrgRateLimiter pacing', () => {
  const rate = (remaining: number, resetAt: number, limit = 10) => ({ limit, remaining, resetAt });

  it('sends one probe call while the budget is unknown, then as many as the platform says remain', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    let second = false;
    const waiting = limiter.acquire().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    limiter.release(rate(2, clock.now() + 60_000));
    await waiting;
    expect(second).toBe(true);
    await limiter.acquire();
    expect(limiter.snapshot()).toMatchObject({ remaining: 0, inFlight: 2 });
  });

  it('counts calls still in flight against a fresh window the platform has not seen them in', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    limiter.release(rate(5, clock.now() + 60_000));
    await limiter.acquire();
    await limiter.acquire();
    // A new window (a later Reset) reports 9 left; two of ours are still out.
    limiter.release(rate(9, clock.now() + 120_000));
    expect(limiter.snapshot()).toMatchObject({ remaining: 8, inFlight: 1 });
  });

  it('keeps the smaller count within the same window: answers lag behind calls in flight', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    const resetAt = clock.now() + 60_000;
    await limiter.acquire();
    limiter.release(rate(3, resetAt));
    await limiter.acquire();
    limiter.release(rate(7, resetAt + 200));
    expect(limiter.snapshot().remaining).toBe(2);
  });

  it('waits for the window to roll over when the budget is spent, then probes the new one with one call', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    const resetAt = clock.now() + 30_000;
    limiter.release(rate(0, resetAt, 4));
    const started = clock.now();
    expect(await limiter.acquire()).toEqual({ probe: true });
    expect(clock.now()).toBeGreaterThanOrEqual(started + 30_000);
    // Another process may have opened the window already: nothing more goes out until the probe answers.
    expect(limiter.snapshot()).toMatchObject({ remaining: undefined, inFlight: 1 });
    let second = false;
    const waiting = limiter.acquire().then((slot) => {
      second = true;
      return slot;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    limiter.release(rate(1, clock.now() + 60_000, 4));
    expect(await waiting).toEqual({ probe: false });
    expect(limiter.snapshot()).toMatchObject({ remaining: 0, inFlight: 1 });
  });

  it('adds up to a second of jitter to the fallback wait, so instances do not retry together', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0.5);
    await limiter.acquire();
    expect(limiter.exhausted(undefined)).toBe(FALLBACK_429_WAIT_MS + 500);
  });

  it('gives up waiting when the caller cancels', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.snapshot().inFlight).toBe(1);
  });
});

describe('RateLimiterRegistry', () => {
  it('forgets idle limiters past its size, but never one with calls in flight or a window still open', async () => {
    const clock = fakeClock();
    const registry = new RateLimiterRegistry(clock, () => 0, 3);
    const busy = registry.for('org:busy');
    await busy.acquire();
    const spent = registry.for('org:spent');
    await spent.acquire();
    spent.release({ limit: 10, remaining: 0, resetAt: clock.now() + 60_000 });
    registry.for('token:once');
    registry.for('token:twice');
    expect(registry.size).toBe(3);
    // The idle one went; the busy one and the one waiting for its window kept what they know.
    expect(registry.for('org:busy')).toBe(busy);
    expect(registry.for('org:spent')).toBe(spent);
  });
});

describe('OrgRateLimiter lanes', () => {
  const rate = (remaining: number, resetAt: number, limit = 10) => ({ limit, remaining, resetAt });

  it('lets an interactive call go before a background call waiting for the same window', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0);
    await limiter.acquire();
    const order: string[] = [];
    const background = limiter.acquire(undefined, 'background').then(() => order.push('background'));
    const interactive = limiter.acquire(undefined, 'interactive').then(() => order.push('interactive'));
    await Promise.resolve();
    expect(order).toEqual([]);
    limiter.release(rate(6, clock.now() + 60_000));
    await Promise.all([background, interactive]);
    expect(order).toEqual(['interactive', 'background']);
  });

  it('keeps the interactive share of a young window from background calls, and hands it over as the window runs out', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5);
    await limiter.acquire(undefined, 'background');
    limiter.release(rate(10, clock.now() + 60_000));
    const started = clock.now();
    for (let call = 0; call < 5; call++) await limiter.acquire(undefined, 'background');
    expect(clock.now()).toBe(started);
    // Half the window is the interactive share: a person coming now takes a slot at once.
    await limiter.acquire(undefined, 'interactive');
    expect(clock.now()).toBe(started);
    // The next background call waits until the interactive share has shrunk with the time left.
    await limiter.acquire(undefined, 'background');
    expect(clock.now()).toBeGreaterThanOrEqual(started + 12_000);
    expect(limiter.snapshot().remaining).toBe(3);
  });

  it('keeps a share of the rest of the window for a person who already took calls earlier in it', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5);
    await limiter.acquire(undefined, 'background');
    // 24 s of the window left: the interactive share of what is left of it is ceil(5 x 22/58) = 2 slots.
    limiter.release(rate(10, clock.now() + 24_000));
    const started = clock.now();
    await limiter.acquire(undefined, 'interactive');
    await limiter.acquire(undefined, 'interactive');
    for (let call = 0; call < 6; call++) await limiter.acquire(undefined, 'background');
    expect(clock.now()).toBe(started);
    // The two slots taken before were the earlier time's: two are still held for people, so background waits.
    await limiter.acquire(undefined, 'background');
    expect(clock.now()).toBeGreaterThan(started);
  });

  it('gives the held share to background before the window turns, so no slot of the window goes unspent', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5);
    await limiter.acquire(undefined, 'background');
    const resetAt = clock.now() + 60_000;
    limiter.release(rate(10, resetAt));
    for (let call = 0; call < 10; call++) await limiter.acquire(undefined, 'background');
    expect(limiter.snapshot().remaining).toBe(0);
    expect(clock.now()).toBeLessThan(resetAt);
  });

  it('keeps background its share while it is about: interactive calls do not take the whole window', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5);
    await limiter.acquire(undefined, 'background');
    limiter.release(rate(10, clock.now() + 60_000));
    const started = clock.now();
    for (let call = 0; call < 5; call++) await limiter.acquire(undefined, 'interactive');
    // The rest is background's share: it takes a slot at once, an interactive call waits.
    await limiter.acquire(undefined, 'background');
    expect(clock.now()).toBe(started);
    await limiter.acquire(undefined, 'interactive');
    expect(clock.now()).toBeGreaterThan(started);
  });

  it('holds nothing for background when no background call is about', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5);
    await limiter.acquire();
    limiter.release(rate(10, clock.now() + 60_000));
    const started = clock.now();
    for (let call = 0; call < 10; call++) await limiter.acquire(undefined, 'interactive');
    expect(clock.now()).toBe(started);
    expect(limiter.snapshot().remaining).toBe(0);
  });
});
