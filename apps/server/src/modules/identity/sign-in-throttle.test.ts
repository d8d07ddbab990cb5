import { describe, expect, it } from 'vitest';
import {
  delayAfter,
  lockedFor,
  lockMessage,
  resetRequestLockMessage,
  type ThrottlePolicy,
} from './sign-in-throttle.js';

const policy: ThrottlePolicy = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  baseDelayMs: 250,
  maxDelayMs: 4000,
};

describe('sign-in throttling rules', () => {
  it('grows the delay after each failure, up to the cap', () => {
    expect([1, 2, 3, 4].map((failures) => delayAfter(failures, policy))).toEqual([0, 250, 500, 1000]);
    expect(delayAfter(30, policy)).toBe(4000);
  });

  it('tells how long a lock has left', () => {
    const now = new Date('2026-01-01T09:00:00Z');
    expect(lockedFor(new Date(now.getTime() + 60_000), now)).toBe(60_000);
    expect(lockedFor(new Date(now.getTime() - 1), now)).toBe(0);
    expect(lockedFor(null, now)).toBe(0);
  });

  it('says how long the lock lasts in plain words', () => {
    expect(lockMessage(14 * 60_000 + 1)).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(lockMessage(10_000)).toBe('Too many failed sign-in attempts. Try again in 1 minute.');
    expect(resetRequestLockMessage(60_000)).toBe(
      'Too many code requests for this account or address. Try again in 1 minute.',
    );
  });
});
