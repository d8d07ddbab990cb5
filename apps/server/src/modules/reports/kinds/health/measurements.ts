import type {
  AgentMeasurement,
  EndpointMeasurement,
  Measurements,
  RuleMeasurement,
  TestMeasurement,
  UnitsMeasurement,
} from '@ce/contract';
import type { Readable } from '../../../../report-kit/platform-reads.js';
import { firstFailure, type HealthInput } from './checks/input.js';
import { enterpriseAgents } from './checks/measured-agents.js';
import type { MeasuredInput, TestMeasure, UnitsMeasure } from './checks/measured-input.js';
import { MEASURED_LIMITS as L } from './checks/measured-limits.js';
import { runOutDate } from './checks/units-runway.js';

/**
 * What the platform measured at the customer, summed up from what the measured checks read (decision 0037): what a
 * health check writes beside its findings and a watch run keeps, so trends exist past the platform's own windows.
 * A part the token could not read keeps the checks' own reason; nothing is made up or counted as zero.
 */

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** A read's value turned into a part, or its refusal as is. */
function partOf<T, U>(read: Readable<T>, make: (value: T) => U): Readable<U> {
  return read.ok ? { ok: true, value: make(read.value) } : read;
}

function testOf(test: TestMeasure): TestMeasurement {
  const failing = test.agents.filter((agent) => agent.failingSince !== undefined);
  return {
    testId: test.testId,
    testName: test.testName,
    accountGroup: test.accountGroup,
    availability: test.results > 0 ? oneDecimal((test.good / test.results) * 100) : null,
    latencyMs: test.latencyMs === undefined ? null : oneDecimal(test.latencyMs),
    results: test.results,
    good: test.good,
    rounds: test.rounds,
    agents: test.agents.length,
    failingAgents: failing.length,
    failingSince: failing.map((agent) => agent.failingSince ?? '').sort()[0] ?? null,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Each rule's alerts that started in the window, the cleared ones' median time, and its tests' rounds. */
function rulesOf(input: HealthInput, measured: MeasuredInput): Readable<RuleMeasurement[]> {
  const { ruleDetails, results } = measured;
  const failure = firstFailure(ruleDetails, input.alerts, results);
  if (failure || !ruleDetails.ok || !input.alerts.ok || !results.ok) return { ok: false, reason: failure ?? '' };
  const rounds = new Map(results.value.map((test) => [test.testId, test.rounds]));
  const started = new Map<string, { alerts: number; clearMs: number[] }>();
  for (const alert of input.alerts.value) {
    const start = Date.parse(alert.startDate);
    if (start < measured.from || start > measured.to) continue;
    const entry = started.get(alert.ruleId) ?? { alerts: 0, clearMs: [] };
    entry.alerts += 1;
    if (alert.endDate) entry.clearMs.push(Date.parse(alert.endDate) - start);
    started.set(alert.ruleId, entry);
  }
  const rules = ruleDetails.value.map((rule): RuleMeasurement => {
    const entry = started.get(rule.ruleId) ?? { alerts: 0, clearMs: [] };
    return {
      ruleId: rule.ruleId,
      ruleName: rule.ruleName,
      accountGroup: rule.accountGroup,
      alerts: entry.alerts,
      cleared: entry.clearMs.length,
      medianClearMinutes: entry.clearMs.length ? oneDecimal(median(entry.clearMs) / 60_000) : null,
      rounds: rule.testIds.reduce((sum, testId) => sum + (rounds.get(testId) ?? 0), 0),
    };
  });
  return { ok: true, value: rules.sort((a, b) => b.alerts - a.alerts) };
}

/** Enterprise agents once each; "outdated" is the platform's own word in the agent's error details. */
const agentsOf = (agents: MeasuredInput['agents']): Readable<AgentMeasurement> =>
  partOf(agents, (all) => {
    const enterprise = enterpriseAgents(all);
    return {
      enterprise: enterprise.length,
      offline: enterprise
        .filter((agent) => agent.agentState === 'offline')
        .map((agent) => ({
          agentId: agent.agentId,
          agentName: agent.agentName,
          accountGroup: agent.accountGroup,
          since: agent.lastSeen ?? null,
        })),
      erroring: enterprise.filter((agent) => agent.errors.length > 0).length,
      outdated: enterprise.filter((agent) => agent.errors.some((error) => /outdated/i.test(error))).length,
    };
  });

function unitsOf(measure: UnitsMeasure, now: Date): UnitsMeasurement {
  const runway = runOutDate(measure, now);
  const sum = (pick: (test: UnitsMeasure['tests'][number]) => number) =>
    measure.tests.reduce((total, test) => total + pick(test), 0);
  return {
    periodStart: measure.periodStart,
    periodEnd: measure.periodEnd,
    used: sum((test) => test.used),
    projected: sum((test) => test.projected),
    included: measure.included ?? null,
    runOutAt: runway?.at === undefined ? null : iso(runway.at),
    consumers: [...measure.tests]
      .sort((a, b) => b.used - a.used)
      .slice(0, L.largestConsumers)
      .map((test) => ({ testName: test.testName, accountGroup: test.accountGroup, used: test.used })),
    instant: sum((test) => (test.instant ? test.used : 0)),
  };
}

const endpointsOf = (endpoints: MeasuredInput['endpoints']): Readable<EndpointMeasurement> =>
  partOf(endpoints, (value) => ({
    inUse: value.inUse,
    licensed: value.licensed ?? null,
    versions: [...(value.versions ?? [])].sort((a, b) => b.agents - a.agents),
  }));

/** The measurements of a health check's input; undefined when it read none (AHC v6). */
export function measurementsOf(input: HealthInput): Measurements | undefined {
  const measured = input.measured;
  if (!measured) return undefined;
  return {
    from: iso(measured.from),
    to: iso(measured.to),
    tests: partOf(measured.results, (tests) =>
      tests.map(testOf).sort((a, b) => (a.availability ?? 101) - (b.availability ?? 101)),
    ),
    rules: rulesOf(input, measured),
    agents: agentsOf(measured.agents),
    units: partOf(measured.units, (measure) => unitsOf(measure, input.now)),
    endpoints: endpointsOf(measured.endpoints),
    changes: measured.changes ?? { ok: false, reason: 'Who changed what was not read.' },
  };
}
