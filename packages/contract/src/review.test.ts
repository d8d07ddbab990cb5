import { describe, expect, it } from 'vitest';
import { CAPABILITY_DESCRIPTIONS } from './api-tokens.js';
import { periodFitsKind, reviewPackOptionsSchema, reviewPeriodSchema } from './review.js';
import { REVIEW_MESSAGES } from './review-words.js';

const refusal = (period: Record<string, string>) => {
  const parsed = reviewPeriodSchema.safeParse(period);
  return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
};

describe("a review pack's period", () => {
  it('takes a calendar month, a calendar quarter, or any dates', () => {
    expect(refusal({ kind: 'month', from: '2026-11-01', to: '2026-11-30' })).toBeNull();
    expect(refusal({ kind: 'month', from: '2028-02-01', to: '2028-02-29' })).toBeNull();
    expect(refusal({ kind: 'quarter', from: '2026-10-01', to: '2026-12-31' })).toBeNull();
    expect(refusal({ kind: 'dates', from: '2026-11-05', to: '2026-12-02' })).toBeNull();
  });

  it('refuses a month or a quarter its dates are not, in words', () => {
    expect(refusal({ kind: 'month', from: '2026-11-02', to: '2026-11-30' })).toEqual([REVIEW_MESSAGES.notAMonth]);
    expect(refusal({ kind: 'month', from: '2026-11-01', to: '2026-11-29' })).toEqual([REVIEW_MESSAGES.notAMonth]);
    expect(refusal({ kind: 'month', from: '2027-02-01', to: '2027-02-29' })).not.toBeNull();
    expect(refusal({ kind: 'quarter', from: '2026-11-01', to: '2027-01-31' })).toEqual([REVIEW_MESSAGES.notAQuarter]);
    expect(refusal({ kind: 'quarter', from: '2026-10-01', to: '2026-11-30' })).toEqual([REVIEW_MESSAGES.notAQuarter]);
    expect(periodFitsKind({ kind: 'quarter', from: '2026-01-01', to: '2026-03-31' })).toBe(true);
  });

  it('refuses days before 2000 with their own words, not a failure later', () => {
    expect(refusal({ kind: 'dates', from: '0000-01-01', to: '0000-01-31' })).toEqual([REVIEW_MESSAGES.periodTooEarly]);
    expect(refusal({ kind: 'month', from: '1999-12-01', to: '1999-12-31' })).toEqual([REVIEW_MESSAGES.periodTooEarly]);
    expect(refusal({ kind: 'dates', from: '2000-01-01', to: '2000-01-31' })).toBeNull();
  });

  it('has no narrative unless one is sent: the pack then says the kept one', () => {
    const period = { kind: 'month', from: '2026-11-01', to: '2026-11-30' };
    expect(reviewPackOptionsSchema.parse({ period }).narrative).toBeUndefined();
    expect(reviewPackOptionsSchema.parse({ period, narrative: { goals: ['Fewer alerts'] } }).narrative).toEqual({
      goals: ['Fewer alerts'],
      highlights: [],
      nextSteps: [],
    });
  });
});

describe('the health checks capability', () => {
  it('names the review packs, the fleet summary and the measured trends it opens', () => {
    expect(CAPABILITY_DESCRIPTIONS.healthCheck).toMatch(/review packs/);
    expect(CAPABILITY_DESCRIPTIONS.healthCheck).toMatch(/fleet summary/);
    expect(CAPABILITY_DESCRIPTIONS.healthCheck).toMatch(/measured trends/);
  });
});
