import { describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@ce/contract';
import { FIXED_PACK } from './review-pack.fixture.js';
import type { KeyTestWeeks, ReviewPack } from './review-pack.js';
import { planSlides } from './review-slides.js';
import { healthTicks } from './review-stored.js';

const slide = (pack: ReviewPack, title: string) => {
  const found = planSlides(pack).find((plan) => plan.title === title);
  if (!found) throw new Error(`no slide ${title}`);
  return found;
};

/** The pack with these key tests over two weeks. */
function withKeyTests(tests: KeyTestWeeks[]): ReviewPack {
  return {
    ...FIXED_PACK,
    availability: { ...FIXED_PACK.availability, content: { weeks: ['W40', 'W41'], targetPercent: 99, tests } },
  };
}

describe("the key tests' table", () => {
  it('says a test without a round has no rounds, for its availability and latency alike, never 0%', () => {
    const table = slide(
      withKeyTests([{ test: 'Silent DNS', availability: [null, null], latencyMs: [null, null], belowTarget: false }]),
      'Key tests over the period',
    );
    expect(table.kind === 'table' && table.rows).toEqual([
      [
        'Silent DNS',
        REVIEW_MESSAGES.noRounds,
        REVIEW_MESSAGES.noRounds,
        REVIEW_MESSAGES.noRounds,
        REVIEW_MESSAGES.noRounds,
      ],
    ]);
  });

  it('keeps a real 0% of a test whose every round failed, its latency then not measured rather than no rounds', () => {
    const table = slide(
      withKeyTests([{ test: 'Payroll HTTP', availability: [0, 0], latencyMs: [null, null], belowTarget: true }]),
      'Key tests over the period',
    );
    expect(table.kind === 'table' && table.rows).toEqual([
      ['Payroll HTTP', '0%', '0%', REVIEW_MESSAGES.noLatency, 'Below target'],
    ]);
  });
});

describe('the health trend slide', () => {
  it('says "What moved it:" once, above each change', () => {
    const trend = slide(FIXED_PACK, 'Health trend');
    expect(trend.kind === 'chart' && trend.lines).toEqual([
      REVIEW_MESSAGES.whatMoved,
      'Payroll HTTP failures fixed (+6)',
      'An agent offline for 9 days (-3)',
    ]);
  });

  it('labels every tick with a distinct moment: by time when checks fell on one day, to the second in one minute', () => {
    expect(
      healthTicks([
        { at: '2026-12-01T08:00:00.000Z', score: 70 },
        { at: '2026-12-02T09:00:00.000Z', score: 72 },
        { at: '2026-12-02T14:30:10.000Z', score: 75 },
        { at: '2026-12-02T14:30:50.000Z', score: 78 },
        { at: '2026-12-02T14:30:50.400Z', score: 79 },
      ]),
    ).toEqual([
      { label: '1 Dec', score: 70 },
      { label: '2 Dec 09:00', score: 72 },
      { label: '2 Dec 14:30:10', score: 75 },
      { label: '2 Dec 14:30:50', score: 79 },
    ]);
  });
});
