import { describe, expect, it } from 'vitest';
import { formatted } from './metric-tile';

describe('a metric tile', () => {
  it('writes numbers as en-US does', () => {
    for (const value of [0, 7, 999, 1000, 12_345, 1_234_567, 12.5, 1234.125, -4321, 0.333_333])
      expect(formatted(value)).toBe(value.toLocaleString('en-US'));
  });
});
