import { describe, expect, it } from 'vitest';
import { periodSlug } from './generator.js';

describe("a review pack's files are named after the period they cover", () => {
  it('names a month, a quarter and chosen dates', () => {
    expect(periodSlug({ kind: 'month', from: '2026-11-01', to: '2026-11-30' })).toBe('2026-11');
    expect(periodSlug({ kind: 'quarter', from: '2026-01-01', to: '2026-03-31' })).toBe('2026-Q1');
    expect(periodSlug({ kind: 'quarter', from: '2026-10-01', to: '2026-12-31' })).toBe('2026-Q4');
    expect(periodSlug({ kind: 'dates', from: '2026-11-05', to: '2026-12-01' })).toBe('2026-11-05-to-2026-12-01');
  });
});
