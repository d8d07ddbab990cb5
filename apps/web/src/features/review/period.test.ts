import { describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@ce/contract';
import { cleanNarrative, NEXT_STEP_INCOMPLETE } from './narrative';
import {
  CUT_OFF_IN_FUTURE,
  cutOffNow,
  cutOffOf,
  cutOffProblem,
  dayProblems,
  defaultPeriod,
  monthOptions,
  periodProblem,
  quarterOptions,
  utcMinute,
} from './period';

const NOW = new Date('2026-12-02T13:07:30Z');

describe("the review pack's period", () => {
  it('is the last full month by default, the last full quarter, or the last 30 days', () => {
    expect(defaultPeriod('month', NOW)).toEqual({ kind: 'month', from: '2026-11-01', to: '2026-11-30' });
    expect(defaultPeriod('quarter', NOW)).toEqual({ kind: 'quarter', from: '2026-07-01', to: '2026-09-30' });
    expect(defaultPeriod('dates', NOW)).toEqual({ kind: 'dates', from: '2026-11-03', to: '2026-12-02' });
    // Across a year's turn: December and the fourth quarter of the year before.
    const january = new Date('2027-01-15T08:00:00Z');
    expect(defaultPeriod('month', january)).toEqual({ kind: 'month', from: '2026-12-01', to: '2026-12-31' });
    expect(defaultPeriod('quarter', january)).toEqual({ kind: 'quarter', from: '2026-10-01', to: '2026-12-31' });
  });

  it('offers this month and quarter so far, then the ones before, newest first, by name', () => {
    const months = monthOptions(NOW);
    expect(months.slice(0, 3).map((option) => option.label)).toEqual([
      'December 2026 (so far)',
      'November 2026',
      'October 2026',
    ]);
    expect(months).toHaveLength(13);
    expect(months[12]?.period).toEqual({ kind: 'month', from: '2025-12-01', to: '2025-12-31' });
    const quarters = quarterOptions(NOW);
    expect(quarters.map((option) => option.label)).toEqual([
      'Q4 2026 (Oct–Dec), so far',
      'Q3 2026 (Jul–Sep)',
      'Q2 2026 (Apr–Jun)',
      'Q1 2026 (Jan–Mar)',
      'Q4 2025 (Oct–Dec)',
    ]);
    expect(quarters[1]?.period).toEqual({ kind: 'quarter', from: '2026-07-01', to: '2026-09-30' });
  });

  it('says what is wrong with dates in the contract’s words', () => {
    const dates = (from: string, to: string) => periodProblem({ kind: 'dates', from, to }, NOW);
    expect(dates('2026-11-01', '2026-11-30')).toBeNull();
    expect(dates('2026-11-30', '2026-11-01')).toBe(REVIEW_MESSAGES.periodOrder);
    expect(dates('2026-07-01', '2026-10-15')).toBe(REVIEW_MESSAGES.periodTooLong);
    expect(dates('2026-12-03', '2026-12-10')).toBe(REVIEW_MESSAGES.periodInFuture);
    expect(dates('', '2026-12-10')).toBe(REVIEW_MESSAGES.firstDayMissing);
    expect(dates('2026-11-01', '2026-02-30')).toBe(REVIEW_MESSAGES.lastDayMissing);
    expect(dates('2026-11-01', '20261-01-01')).toBe(REVIEW_MESSAGES.lastDayMissing);
    expect(dates('0000-01-01', '0000-01-31')).toBe(REVIEW_MESSAGES.periodTooEarly);
  });
});

describe("the review pack's days, each beside its field", () => {
  it('says the first day’s problem beside it, and the last day’s or the order beside the last day', () => {
    const days = (from: string, to: string) => dayProblems({ kind: 'dates', from, to }, NOW);
    expect(days('2026-11-01', '2026-11-30')).toEqual({ from: null, to: null });
    expect(days('2026-12-10', '2026-12-02')).toEqual({
      from: REVIEW_MESSAGES.periodInFuture,
      to: REVIEW_MESSAGES.periodOrder,
    });
    expect(days('', '')).toEqual({ from: REVIEW_MESSAGES.firstDayMissing, to: REVIEW_MESSAGES.lastDayMissing });
    // Without a first day, the last day is not said to come before it.
    expect(days('2026-02-30', '2026-11-01')).toEqual({ from: REVIEW_MESSAGES.firstDayMissing, to: null });
  });
});

describe("the review pack's cut-off", () => {
  it('is the second it is now by default, read as UTC from its field', () => {
    expect(cutOffNow(NOW)).toBe('2026-12-02T13:07:30.000Z');
    expect(cutOffOf('2026-11-30T23:59')).toBe('2026-11-30T23:59:00.000Z');
    expect(cutOffOf('2026-11-30T23:59:15')).toBe('2026-11-30T23:59:15.000Z');
    expect(cutOffOf('2026-11-30')).toBeNull();
    expect(utcMinute('2026-12-02T13:07:00.000Z')).toBe('2 Dec 2026, 13:07 UTC');
  });

  it('falls within the period’s start and now', () => {
    const november = defaultPeriod('month', NOW);
    expect(cutOffProblem('2026-12-01T00:00:00.000Z', november, NOW)).toBeNull();
    expect(cutOffProblem('2026-10-31T23:00:00.000Z', november, NOW)).toBe(REVIEW_MESSAGES.cutOffBeforePeriod);
    expect(cutOffProblem('2026-11-01T00:00:00.000Z', november, NOW)).toBe(REVIEW_MESSAGES.cutOffBeforePeriod);
    expect(cutOffProblem('2026-12-02T14:00:00.000Z', november, NOW)).toBe(CUT_OFF_IN_FUTURE);
    expect(cutOffProblem(null, november, NOW)).toBe('Choose the cut-off’s day and time (UTC).');
  });
});

describe("the review pack's narrative, as it is kept", () => {
  it('leaves out empty lines and steps, and says a step missing its owner or date', () => {
    expect(
      cleanNarrative({
        goals: ['  Cut the time to clear  ', ''],
        highlights: [' '],
        nextSteps: [
          { step: 'Move DNS tests to 1-minute rounds', owner: 'Dana Admin', due: '2027-01-15' },
          { step: '', owner: '', due: '' },
        ],
      }),
    ).toEqual({
      narrative: {
        goals: ['Cut the time to clear'],
        highlights: [],
        nextSteps: [{ step: 'Move DNS tests to 1-minute rounds', owner: 'Dana Admin', due: '2027-01-15' }],
      },
      problem: null,
    });
    expect(
      cleanNarrative({ goals: [], highlights: [], nextSteps: [{ step: 'Review alert rules', owner: '', due: '' }] })
        .problem,
    ).toBe(NEXT_STEP_INCOMPLETE);
  });
});
