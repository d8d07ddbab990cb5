import { describe, expect, it } from 'vitest';
import { OrgRateLimiter, scheduledCap, type Clock } from './rate-limiter.js';

/** A clock whose sleeps pass at once, counting how long they waited. */
function fakeClock(start = 1_000_000): Clock & { slept: number } {
  let now = start;
  const clock = {
    slept: 0,
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      clock.slept += ms;
    },
  };
  return clock;
}

describe('scheduled work at an organization budget (issue 55)', () => {
  const rate = (remaining: number, resetAt: number, limit = 240) => ({ limit, remaining, resetAt });

  it('spends at most its share of a window, and waits for the next window for more', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5, 0.5);
    const windowEnd = clock.now() + 60_000;
    // The probe opens the window: 240 calls, all left.
    await limiter.acquire(undefined, 'scheduled');
    limiter.release(rate(240, windowEnd));
    for (let call = 0; call < 120; call++) {
      await limiter.acquire(undefined, 'scheduled');
      limiter.release(rate(239 - call, windowEnd));
    }
    expect(clock.slept).toBe(0);
    expect(limiter.snapshot().remaining).toBe(120);
    // The 121st scheduled call of the window waits for it to end: the other half stays for people and the customer.
    const next = limiter.acquire(undefined, 'scheduled');
    await next;
    expect(clock.now()).toBeGreaterThanOrEqual(windowEnd);
  });

  it('leaves the rest of the window to people and to jobs a person asked for', async () => {
    const clock = fakeClock();
    const limiter = new OrgRateLimiter(clock, () => 0, 0.5, 0.5);
    const windowEnd = clock.now() + 60_000;
    await limiter.acquire(undefined, 'scheduled');
    limiter.release(rate(10, windowEnd, 10));
    for (let call = 0; call < scheduledCap(0.5, 10); call++) await limiter.acquire(undefined, 'scheduled');
    // Scheduled work has its 5: a person's call still goes at once, in the same window.
    await limiter.acquire(undefined, 'interactive');
    expect(clock.slept).toBe(0);
    expect(limiter.snapshot().remaining).toBe(4);
  });
});
