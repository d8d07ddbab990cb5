import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  delayAfter,
  lockedFor,
  lockMessage,
  type ThrottlePolicy,
  type ThrottleState,
} from './sign-in-throttle.js';

const policy: ThrottlePolicy = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  baseDelayMs: 250,
  maxDelayMs: 4000,
};
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 9, minutes));

describe('sign-in throttling', () => {
  it('grows the delay after each failure, then locks at the limit', () => {
    let state: ThrottleState | undefined;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      state = afterFailure(state, at(attempt), policy);
      delays.push(delayAfter(state.failures, policy));
      expect(lockedFor(state, at(attempt))).toBe(0);
    }
    expect(delays).toEqual([0, 250, 500, 1000]);
    state = afterFailure(state, at(5), policy);
    expect(state.failures).toBe(5);
    expect(lockedFor(state, at(5))).toBe(15 * 60_000);
    expect(lockedFor(state, at(19))).toBe(60_000);
    expect(lockedFor(state, at(20))).toBe(0);
  });

  it('caps the delay', () => {
    expect(delayAfter(30, policy)).toBe(4000);
  });

  it('starts counting again after the window, and after a lock ends', () => {
    const old = afterFailure(afterFailure(undefined, at(0), policy), at(1), policy);
    expect(afterFailure(old, at(30), policy).failures).toBe(1);
    let locked: ThrottleState | undefined;
    for (let attempt = 0; attempt < 5; attempt++) locked = afterFailure(locked, at(attempt), policy);
    expect(afterFailure(locked, at(25), policy)).toMatchObject({ failures: 1, lockedUntil: null });
  });

  it('tells how long the lock lasts in plain words', () => {
    expect(lockMessage(14 * 60_000 + 1)).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(lockMessage(10_000)).toBe('Too many failed sign-in attempts. Try again in 1 minute.');
  });
});
