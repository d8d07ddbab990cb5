import { describe, expect, it } from 'vitest';
import { backoffMs, readBackoffMs } from './http.js';

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
