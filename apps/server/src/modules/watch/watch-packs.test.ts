import { describe, expect, it } from 'vitest';
import { lastPackOf, nextPackDue, periodLabel } from './watch-packs.js';

describe('when the next review pack is due', () => {
  it('is the day after the next month, quarter, or as many days again', () => {
    expect(nextPackDue({ periodKind: 'month', from: '2026-04-01', to: '2026-04-30' })).toBe('2026-06-01');
    expect(nextPackDue({ periodKind: 'month', from: '2026-01-01', to: '2026-01-31' })).toBe('2026-03-01');
    expect(nextPackDue({ periodKind: 'quarter', from: '2026-10-01', to: '2026-12-31' })).toBe('2027-04-01');
    expect(nextPackDue({ periodKind: 'dates', from: '2026-03-01', to: '2026-03-14' })).toBe('2026-03-29');
    // Built after its period ended: the rule above.
    const april = { periodKind: 'month' as const, from: '2026-04-01', to: '2026-04-30' };
    expect(nextPackDue({ ...april, builtAt: '2026-05-02T09:00:00.000Z' })).toBe('2026-06-01');
  });

  it('keeps the whole period due when its pack was built before it ended (the month so far)', () => {
    const december = { periodKind: 'month' as const, from: '2026-12-01', to: '2026-12-31' };
    expect(nextPackDue({ ...december, builtAt: '2026-12-02T13:37:00.000Z' })).toBe('2027-01-01');
    const q4 = { periodKind: 'quarter' as const, from: '2026-10-01', to: '2026-12-31' };
    expect(nextPackDue({ ...q4, builtAt: '2026-12-31T23:00:00.000Z' })).toBe('2027-01-01');
  });

  it('names the period as a customer says it', () => {
    expect(periodLabel('month', '2026-04-01', '2026-04-30')).toBe('April 2026');
    expect(periodLabel('quarter', '2026-07-01', '2026-09-30')).toBe('Q3 2026');
    expect(periodLabel('dates', '2026-03-03', '2026-04-16')).toBe('3 Mar – 16 Apr 2026');
    expect(periodLabel('dates', '2025-12-20', '2026-01-10')).toBe('20 Dec 2025 – 10 Jan 2026');
  });

  it('takes no report whose options hold no period', () => {
    const at = new Date('2026-05-02T10:00:00Z');
    expect(lastPackOf({ id: 'r1', options: {}, finishedAt: at, createdAt: at })).toBeNull();
    expect(
      lastPackOf({
        id: 'r2',
        options: { period: { kind: 'quarter', from: '2026-01-01', to: '2026-03-31' } },
        finishedAt: at,
        createdAt: at,
      }),
    ).toEqual({
      reportId: 'r2',
      periodKind: 'quarter',
      from: '2026-01-01',
      to: '2026-03-31',
      periodLabel: 'Q1 2026',
      builtAt: '2026-05-02T10:00:00.000Z',
    });
  });
});
