import { describe, expect, it } from 'vitest';
import { packDue } from './watch-review-duty.js';

const watch = { id: 'w-1', monthlyReviewPack: true, runs: 'health' };

describe("a watch's monthly review pack duty", () => {
  it("owes the previous UTC month's pack, cut off when it is asked for, under the watch's and month's key", () => {
    expect(packDue(watch, new Date('2027-01-01T00:30:00Z'))).toEqual({
      key: 'review-pack:w-1:2026-12',
      options: {
        period: { kind: 'month', from: '2026-12-01', to: '2026-12-31' },
        cutOff: '2027-01-01T00:30:00.000Z',
        keyTests: [],
      },
      month: { from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') },
    });
    // February of a leap year ends on the 29th; every run of March names the same month.
    expect(packDue(watch, new Date('2028-03-31T23:59:00Z'))?.options.period).toEqual({
      kind: 'month',
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(packDue(watch, new Date('2028-03-02T07:00:00Z'))?.key).toBe('review-pack:w-1:2028-02');
  });

  it('owes none without the duty, nor on a watch of backups alone', () => {
    expect(packDue({ ...watch, monthlyReviewPack: false }, new Date('2027-01-01T00:30:00Z'))).toBeNull();
    expect(packDue({ ...watch, runs: 'backup' }, new Date('2027-01-01T00:30:00Z'))).toBeNull();
  });
});
