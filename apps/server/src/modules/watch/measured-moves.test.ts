import { describe, expect, it } from 'vitest';
import type { Measurements, RuleMeasurement, TestMeasurement } from '@ce/contract';
import { measuredMoves, sinceWords } from './measured-moves.js';

// A Thursday.
const now = new Date('2026-12-10T09:30:00Z');
const context = { now, timeZone: 'UTC' };

const test = (availability: number | null, fields: Partial<TestMeasurement> = {}): TestMeasurement => ({
  testId: 't1',
  testName: 'Payroll HTTP',
  accountGroup: 'Acme',
  availability,
  latencyMs: 120,
  results: 1_000,
  good: 990,
  rounds: 200,
  agents: 5,
  failingAgents: 0,
  failingSince: null,
  ...fields,
});
const rule = (alerts: number): RuleMeasurement => ({
  ruleId: 'r1',
  ruleName: 'Checkout errors',
  accountGroup: 'Acme',
  alerts,
  cleared: alerts,
  medianClearMinutes: 1,
  rounds: 10_080,
});
const offline = (agentId: string, agentName: string, since: string | null) => ({
  agentId,
  agentName,
  accountGroup: 'Acme',
  since,
});

function measured(parts: {
  tests?: TestMeasurement[];
  rules?: RuleMeasurement[];
  offline?: ReturnType<typeof offline>[];
  units?: { projected: number; included: number | null; runOutAt?: string };
}): Measurements {
  const refused = { ok: false as const, reason: 'not read' };
  return {
    from: '2026-12-03T09:30:00Z',
    to: '2026-12-10T09:30:00Z',
    tests: parts.tests ? { ok: true, value: parts.tests } : refused,
    rules: parts.rules ? { ok: true, value: parts.rules } : refused,
    agents: parts.offline
      ? { ok: true, value: { enterprise: 6, offline: parts.offline, erroring: 0, outdated: 0 } }
      : refused,
    units: parts.units
      ? {
          ok: true,
          value: {
            periodStart: '2026-12-01T00:00:00Z',
            periodEnd: '2026-12-31T23:59:59Z',
            used: 500,
            projected: parts.units.projected,
            included: parts.units.included,
            runOutAt: parts.units.runOutAt ?? null,
            consumers: [],
            instant: 0,
          },
        }
      : refused,
    endpoints: refused,
    changes: refused,
  };
}

const lines = (before: Measurements, after: Measurements) =>
  measuredMoves(before, after, context).map((move) => move.line);

describe('what moved since the previous run, in words', () => {
  it('a test falling below its target, with its failing agents since a weekday', () => {
    const failing = test(91, { failingAgents: 3, failingSince: '2026-12-08T09:00:00Z' });
    expect(lines(measured({ tests: [test(99.2)] }), measured({ tests: [failing] }))).toEqual([
      "'Payroll HTTP' availability 99.2% → 91.0%, 3 of 5 agents failing since Tuesday",
    ]);
    expect(measuredMoves(measured({ tests: [test(99.2)] }), measured({ tests: [failing] }), context)[0]?.status).toBe(
      'fail',
    );
  });

  it('and back above it; a fall of less than a point, or one still above the target, is not said', () => {
    expect(lines(measured({ tests: [test(91)] }), measured({ tests: [test(99.6)] }))).toEqual([
      "'Payroll HTTP' availability 91.0% → 99.6%",
    ]);
    expect(lines(measured({ tests: [test(98.5)] }), measured({ tests: [test(97.6)] }))).toEqual([]);
    expect(lines(measured({ tests: [test(100)] }), measured({ tests: [test(99)] }))).toEqual([]);
    expect(lines(measured({ tests: [test(null)] }), measured({ tests: [test(50)] }))).toEqual([]);
  });

  it('says the date of a failure older than a week, and today for one of today', () => {
    expect(sinceWords('2026-12-03T08:00:00Z', now)).toBe('3 Dec');
    expect(sinceWords('2026-12-10T08:00:00Z', now)).toBe('today');
    expect(sinceWords('2026-12-04T10:00:00Z', now)).toBe('Friday');
    // In the watch's time zone: 23:30 UTC on the 9th is already Thursday the 10th in Sydney.
    expect(sinceWords('2026-12-09T23:30:00Z', now, 'Australia/Sydney')).toBe('today');
  });

  it('the units projection crossing the included units, by the day they run out', () => {
    const at = (projected: number, runOutAt?: string) => measured({ units: { projected, included: 1_000, runOutAt } });
    expect(lines(at(950), at(1_120, '2026-12-24T06:00:00Z'))).toEqual([
      'units projected at 112% of included by 24 Dec',
    ]);
    // Over already: said again when it moves 5 points or more.
    expect(lines(at(1_120), at(1_160, '2026-12-22T00:00:00Z'))).toEqual([]);
    expect(lines(at(1_120), at(1_170, '2026-12-22T00:00:00Z'))).toEqual([
      'units projected at 117% of included by 22 Dec',
    ]);
    expect(lines(at(1_120), at(980))).toEqual(['units projected at 98% of included']);
    // No included units on either side: nothing to compare with.
    expect(lines(measured({ units: { projected: 900, included: null } }), at(1_200))).toEqual([]);
  });

  it('enterprise agents going offline, each since when, and coming back', () => {
    const nine = offline('1', 'emea-branches-ea-offline-9d', '2026-11-23T10:00:00Z');
    const today = offline('2', 'emea-branches-ea-1', '2026-12-10T09:00:00Z');
    expect(lines(measured({ offline: [] }), measured({ offline: [nine, today] }))).toEqual([
      "Enterprise agents offline 0 → 2: 'emea-branches-ea-offline-9d' since 23 Nov, 'emea-branches-ea-1' since today",
    ]);
    expect(lines(measured({ offline: [nine] }), measured({ offline: [nine, today] }))).toEqual([
      "Enterprise agents offline 1 → 2: 'emea-branches-ea-1' since today",
    ]);
    expect(lines(measured({ offline: [nine, today] }), measured({ offline: [today] }))).toEqual([
      "Enterprise agents offline 2 → 1: 'emea-branches-ea-offline-9d' back online",
    ]);
    expect(lines(measured({ offline: [nine] }), measured({ offline: [nine] }))).toEqual([]);
  });

  it('a rule crossing the noisy line, or doubling over it', () => {
    expect(lines(measured({ rules: [rule(12)] }), measured({ rules: [rule(400)] }))).toEqual([
      "'Checkout errors' 12 → 400 alerts a week",
    ]);
    expect(lines(measured({ rules: [rule(21)] }), measured({ rules: [rule(22)] }))).toEqual([
      "'Checkout errors' 21 → 22 alerts a week",
    ]);
    expect(lines(measured({ rules: [rule(300)] }), measured({ rules: [rule(599)] }))).toEqual([]);
    expect(lines(measured({ rules: [rule(300)] }), measured({ rules: [rule(600)] }))).toEqual([
      "'Checkout errors' 300 → 600 alerts a week",
    ]);
    expect(lines(measured({ rules: [rule(400)] }), measured({ rules: [rule(3)] }))).toEqual([
      "'Checkout errors' 400 → 3 alerts a week",
    ]);
    expect(lines(measured({ rules: [rule(3)] }), measured({ rules: [rule(21)] }))).toEqual([]);
  });

  it('nothing when a side could not read the part, or a run kept no measurements', () => {
    expect(lines(measured({}), measured({ tests: [test(50)], offline: [offline('1', 'x', null)] }))).toEqual([]);
    expect(measuredMoves(null, measured({ tests: [test(50)] }), context)).toEqual([]);
  });
});
