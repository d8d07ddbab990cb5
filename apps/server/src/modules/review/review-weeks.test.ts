import { describe, expect, it } from 'vitest';
import type { Measurements } from '@ce/contract';
import { weightedMedian } from './review-stored.js';
import { isoWeek, runsByWeek, weekSpans, WEEK_MS } from './review-weeks.js';

const at = (iso: string) => Date.parse(iso);
const runEnding = (to: string) => ({ from: to, to }) as Measurements;

describe("a pack's weeks", () => {
  it('are 7-day spans from the start to the cut-off, the last shorter, labelled by ISO week', () => {
    const spans = weekSpans(at('2026-10-01T00:00:00Z'), at('2026-10-16T12:00:00Z'));
    expect(spans.map((span) => span.label)).toEqual(['W40', 'W41', 'W42']);
    expect(spans.at(-1)?.end).toBe(at('2026-10-16T12:00:00Z'));
    expect(isoWeek(at('2027-01-01T00:00:00Z'))).toBe(53);
    expect(weekSpans(at('2026-10-01T00:00:00Z'), at('2026-10-01T00:00:00Z') + WEEK_MS)).toHaveLength(1);
  });

  it('take the latest run whose window ends in each, a run at a span end in that span, none as null', () => {
    const spans = weekSpans(at('2026-10-01T00:00:00Z'), at('2026-10-22T00:00:00Z'));
    const runs = [
      runEnding('2026-10-02T07:30:00Z'),
      runEnding('2026-10-08T00:00:00Z'),
      runEnding('2026-10-20T07:30:00Z'),
    ];
    expect(runsByWeek(spans, runs).map((run) => run?.to ?? null)).toEqual([
      '2026-10-08T00:00:00Z',
      null,
      '2026-10-20T07:30:00Z',
    ]);
    expect(runsByWeek(spans, [runEnding('2026-10-01T00:00:00Z')])).toEqual([null, null, null]);
  });
});

describe('the median time to clear', () => {
  it("counts each rule's median once per alert that cleared", () => {
    expect(weightedMedian([])).toBeNull();
    expect(weightedMedian([{ value: 10, weight: 0 }])).toBeNull();
    expect(
      weightedMedian([
        { value: 10, weight: 3 },
        { value: 100, weight: 1 },
      ]),
    ).toBe(10);
    expect(
      weightedMedian([
        { value: 10, weight: 1 },
        { value: 30, weight: 1 },
      ]),
    ).toBe(20);
  });
});
