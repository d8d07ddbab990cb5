import { describe, expect, it } from 'vitest';
import { isGoodRound, TestTally } from './measured-input.js';
import { runOutDate } from './units-runway.js';

const result = (fields: Record<string, unknown>, agentId = 'a1', date = '2026-03-01T00:00:00Z', roundId = 1) => ({
  agent: { agentId, agentName: `agent ${agentId}` },
  date,
  roundId,
  ...fields,
});

describe('a good round', () => {
  it('has no error, and loss and latency at most their limits (strict: the limit itself is good)', () => {
    expect(isGoodRound(result({ loss: 2, avgLatency: 300 }))).toBe(true);
    expect(isGoodRound(result({ loss: 2.1 }))).toBe(false);
    expect(isGoodRound(result({ avgLatency: 300.5 }))).toBe(false);
    expect(isGoodRound(result({ errorType: 'None', responseCode: 200 }))).toBe(true);
    expect(isGoodRound(result({ errorType: 'Connect' }))).toBe(false);
    expect(isGoodRound(result({ errorDetails: 'Timeout' }))).toBe(false);
    expect(isGoodRound(result({ failedQueries: 4 }))).toBe(false);
    expect(isGoodRound(result({ numErrors: 1 }))).toBe(false);
  });
});

describe('a test tally', () => {
  it('counts rounds per agent, distinct rounds, and the failing run that reaches the end', () => {
    const tally = new TestTally();
    tally.add(result({ errorDetails: 'x' }, 'a1', '2026-03-01T00:00:00Z', 1));
    tally.add(result({}, 'a2', '2026-03-01T00:00:00Z', 1));
    tally.add(result({}, 'a1', '2026-03-01T00:05:00Z', 2));
    tally.add(result({ errorDetails: 'x' }, 'a2', '2026-03-01T00:05:00Z', 2));
    tally.add(result({ errorDetails: 'x' }, 'a1', '2026-03-01T00:10:00Z', 3));
    tally.add(result({ errorDetails: 'x' }, 'a2', '2026-03-01T00:10:00Z', 3));
    const measure = tally.measure({ testId: 't', testName: 'T', accountGroup: 'G' });
    expect(measure).toMatchObject({ results: 6, good: 2, rounds: 3 });
    expect(measure.agents).toEqual([
      { agentId: 'a1', agentName: 'agent a1', rounds: 3, good: 1, failingSince: '2026-03-01T00:10:00Z' },
      { agentId: 'a2', agentName: 'agent a2', rounds: 3, good: 1, failingSince: '2026-03-01T00:05:00Z' },
    ]);
  });
});

describe('when the units run out', () => {
  const period = { periodStart: '2026-03-01T00:00:00Z', periodEnd: '2026-03-31T23:59:59Z' };
  const now = new Date('2026-03-11T00:00:00Z');
  const test = (used: number, projected: number) => ({
    testId: 't',
    testName: 'T',
    accountGroup: 'G',
    used,
    projected,
    instant: false,
  });

  it('at the rest of the period projected, spread evenly to its end', () => {
    const runway = runOutDate({ ...period, included: 2_000, tests: [test(1_000, 3_000)] }, now);
    const perMs = 2_000 / (Date.parse(period.periodEnd) - now.getTime());
    expect(runway?.at).toBeCloseTo(now.getTime() + 1_000 / perMs, -3);
  });

  it('never when the projection is within the included units; now when they are already used', () => {
    expect(runOutDate({ ...period, included: 3_000, tests: [test(1_000, 3_000)] }, now)?.at).toBeUndefined();
    expect(runOutDate({ ...period, included: 900, tests: [test(1_000, 3_000)] }, now)?.at).toBe(now.getTime());
    expect(runOutDate({ ...period, tests: [test(1_000, 3_000)] }, now)).toBeUndefined();
  });
});
