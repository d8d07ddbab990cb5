import { describe, expect, it } from 'vitest';
import type { Measurements, TestMeasurement } from '@ce/contract';
import { PROPOSED_KEY_TESTS, StoredSections } from './review-stored.js';

const test = (testId: string, availability: number | null): TestMeasurement => ({
  testId,
  testName: `Test ${testId}`,
  accountGroup: 'Acme - Production',
  availability,
  latencyMs: null,
  results: 10,
  good: 10,
  rounds: 10,
  agents: 5,
  failingAgents: 0,
  failingSince: null,
});
const unread = { ok: false as const, reason: 'not read here' };
const run = (at: string, tests: TestMeasurement[]): Measurements => ({
  from: at,
  to: at,
  tests: { ok: true, value: tests },
  rules: unread,
  agents: unread,
  units: unread,
  endpoints: unread,
  changes: unread,
});
const sections = (runs: Measurements[]) =>
  new StoredSections({
    organizationId: '9000',
    from: '2026-10-01T00:00:00.000Z',
    until: '2026-12-31T00:00:00.000Z',
    cutOff: '2026-12-31T00:00:00.000Z',
    preparedBy: 'Taylor TAM',
    runs,
    keyTests: [],
    health: [],
    openFindings: [],
    work: [],
    hours: 0,
    narrative: { goals: [], highlights: [], nextSteps: [] },
  });

describe('the key tests a pack proposes', () => {
  it('puts the tests that fell over the period first, then the worst, as many as a pack follows', () => {
    const always = Array.from({ length: 10 }, (_, index) => test(`dead-${index}`, 0));
    const first = run('2026-10-05T07:00:00.000Z', [...always, test('payroll', 100), test('zoom', 99.5)]);
    const last = run('2026-12-28T07:00:00.000Z', [...always, test('payroll', 91.4), test('zoom', 99)]);
    const proposed = sections([first, last]).proposedKeyTests();
    expect(proposed).toHaveLength(PROPOSED_KEY_TESTS);
    // 'payroll' fell 8.6 points: first; 'zoom' fell half a point, under the fall that counts: not proposed over the worst.
    expect(proposed.map((entry) => entry.testId)).toEqual([
      'payroll',
      ...always
        .map((entry) => entry.testId)
        .sort()
        .slice(0, PROPOSED_KEY_TESTS - 1),
    ]);
  });

  it('proposes the worst when nothing fell, and nothing before a run measured the tests', () => {
    const only = run('2026-12-28T07:00:00.000Z', [test('a', 99.9), test('b', 42), test('c', null)]);
    expect(
      sections([only])
        .proposedKeyTests()
        .map((entry) => entry.testId),
    ).toEqual(['b', 'a']);
    expect(sections([]).proposedKeyTests()).toEqual([]);
  });
});
