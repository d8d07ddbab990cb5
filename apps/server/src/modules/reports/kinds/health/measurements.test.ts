import { describe, expect, it } from 'vitest';
import { measurementsSchema } from '@ce/contract';
import type { HealthInput } from './checks/input.js';
import { TestTally, type MeasuredInput } from './checks/measured-input.js';
import { measurementsOf } from './measurements.js';

const now = new Date('2026-03-11T12:00:00Z');
const from = now.getTime() - 7 * 86_400_000;
const refused = (what: string) => ({
  ok: false as const,
  reason: `The token cannot read ${what}: the platform answered 403 Forbidden (permission needed: View Billing).`,
});

function tallied(): MeasuredInput['results'] {
  const tally = new TestTally();
  const round = (agentId: string, roundId: number, fields: Record<string, unknown>) =>
    tally.add({
      agent: { agentId, agentName: agentId },
      date: new Date(from + roundId * 300_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      roundId,
      ...fields,
    });
  round('a1', 1, { avgLatency: 20 });
  round('a2', 1, { avgLatency: 40 });
  round('a1', 2, { avgLatency: 30 });
  round('a2', 2, { errorDetails: 'Connection timed out' });
  return { ok: true, value: [tally.measure({ testId: 't1', testName: 'Payroll HTTP', accountGroup: 'G' })] };
}

function inputOf(measured: Partial<MeasuredInput>): HealthInput {
  const empty = { ok: true as const, value: [] };
  return {
    now,
    users: empty,
    tests: empty,
    rules: empty,
    dashboards: empty,
    usage: refused('the usage'),
    alerts: {
      ok: true,
      value: [
        { id: 'x1', ruleId: 'r1', severity: 'major', startDate: '2026-03-10T00:00:00Z', accountGroup: 'G' },
        {
          id: 'x2',
          ruleId: 'r1',
          severity: 'major',
          startDate: '2026-03-10T01:00:00Z',
          endDate: '2026-03-10T01:30:00Z',
          accountGroup: 'G',
        },
        // Started before the window: not counted.
        { id: 'x3', ruleId: 'r1', severity: 'major', startDate: '2026-03-01T00:00:00Z', accountGroup: 'G' },
      ],
    },
    measured: {
      from,
      to: now.getTime(),
      results: tallied(),
      agents: {
        ok: true,
        value: [
          {
            agentId: 'e1',
            agentName: 'branch-offline',
            agentType: 'enterprise',
            agentState: 'offline',
            lastSeen: '2026-03-02T08:00:00Z',
            errors: [],
            testIds: [],
            accountGroup: 'G',
          },
          {
            agentId: 'e2',
            agentName: 'branch-old',
            agentType: 'enterprise',
            agentState: 'online',
            errors: ['The agent version is outdated'],
            testIds: [],
            accountGroup: 'G',
          },
          { agentId: 'c1', agentName: 'London', agentType: 'cloud', errors: [], testIds: [], accountGroup: 'G' },
        ],
      },
      ruleDetails: {
        ok: true,
        value: [{ ruleId: 'r1', ruleName: 'Payroll errors', accountGroup: 'G', testIds: ['t1'], notifies: true }],
      },
      agentNotificationRules: { ok: true, value: [] },
      endpoints: { ok: true, value: { inUse: 150, licensed: 500 } },
      units: {
        ok: true,
        value: {
          periodStart: '2026-03-01T00:00:00Z',
          periodEnd: '2026-03-31T23:59:59Z',
          included: 2_000,
          tests: [
            {
              testId: 't1',
              testName: 'Payroll HTTP',
              accountGroup: 'G',
              used: 1_000,
              projected: 3_000,
              instant: false,
            },
            { testId: 't2', testName: 'Instant check', accountGroup: 'G', used: 10, projected: 10, instant: true },
          ],
        },
      },
      ...measured,
    },
  };
}

describe('the measurements of a health check', () => {
  it('sums what the platform measured, as the checks read it', () => {
    const measurements = measurementsOf(inputOf({}));
    expect(measurementsSchema.parse(measurements)).toEqual(measurements);
    expect(measurements?.from).toBe('2026-03-04T12:00:00Z');
    expect(measurements?.tests).toEqual({
      ok: true,
      value: [
        {
          testId: 't1',
          testName: 'Payroll HTTP',
          accountGroup: 'G',
          availability: 75,
          latencyMs: 30,
          results: 4,
          good: 3,
          rounds: 2,
          agents: 2,
          failingAgents: 1,
          failingSince: '2026-03-04T12:10:00Z',
        },
      ],
    });
    expect(measurements?.rules).toEqual({
      ok: true,
      value: [
        {
          ruleId: 'r1',
          ruleName: 'Payroll errors',
          accountGroup: 'G',
          alerts: 2,
          cleared: 1,
          medianClearMinutes: 30,
          rounds: 2,
        },
      ],
    });
    expect(measurements?.agents).toEqual({
      ok: true,
      value: {
        enterprise: 2,
        offline: [{ agentId: 'e1', agentName: 'branch-offline', accountGroup: 'G', since: '2026-03-02T08:00:00Z' }],
        erroring: 1,
        outdated: 1,
      },
    });
    const units = measurements?.units;
    expect(units?.ok && units.value).toMatchObject({ used: 1_010, projected: 3_010, included: 2_000, instant: 10 });
    // 990 units left, 2,000 more to come evenly over the 20.5 days left: 10.1 days from now.
    expect(units?.ok && units.value.runOutAt?.slice(0, 10)).toBe('2026-03-21');
    expect(units?.ok && units.value.consumers.map((test) => test.testName)).toEqual(['Payroll HTTP', 'Instant check']);
    expect(measurements?.endpoints).toEqual({ ok: true, value: { inUse: 150, licensed: 500, versions: [] } });
    expect(measurements?.changes).toEqual({ ok: false, reason: 'Who changed what was not read.' });
  });

  it('keeps the reason of a part the token could not read, never a zero', () => {
    const reason = refused('the units by test');
    const measurements = measurementsOf(inputOf({ units: reason, results: refused('the results') }));
    expect(measurements?.units).toEqual(reason);
    expect(measurements?.tests).toEqual(refused('the results'));
    // The alert volume is weighed by the tests' rounds: without the results it is not known either.
    expect(measurements?.rules).toEqual(refused('the results'));
    expect(measurements?.agents.ok).toBe(true);
  });

  it('is absent when the kind read no measurements (AHC v6)', () => {
    const { measured: _measured, ...input } = inputOf({});
    expect(measurementsOf(input)).toBeUndefined();
  });
});
