import {
  MEASURED_FELL_POINTS,
  MEASURED_FELL_TESTS,
  MEASURED_TREND_TESTS,
  measurementsSchema,
  userMay,
  type CustomerMeasurements,
  type CustomerMeasurementsQuery,
  type MeasurementPart,
  type Measurements,
  type SessionUser,
} from '@ce/contract';
import type { CustomerMeasurementsRepository } from './customer-measurements.repository.js';

const DAY_MS = 86_400_000;
const PARTS: MeasurementPart[] = ['tests', 'rules', 'agents', 'units', 'endpoints', 'changes'];

/** One watch run's measurements, at the moment they describe. */
export interface MeasuredRun {
  at: string;
  watchId: string;
  measured: Measurements;
}

/** A run's value of one thing by its account group and id, or null when the run could not read that part. */
function pointsOf<T extends { accountGroup: string }>(
  runs: MeasuredRun[],
  list: (measured: Measurements) => T[] | null,
  id: (item: T) => string,
  value: (item: T) => number | null,
): (key: string) => { at: string; value: number | null }[] {
  const byRun = runs.map((run) => {
    const items = list(run.measured);
    return items ? new Map(items.map((item) => [`${item.accountGroup}|${id(item)}`, value(item)])) : null;
  });
  return (key) => runs.map((run, index) => ({ at: run.at, value: byRun[index]?.get(key) ?? null }));
}

const testsOf = (measured: Measurements) => (measured.tests.ok ? measured.tests.value : null);
const rulesOf = (measured: Measurements) => (measured.rules.ok ? measured.rules.value : null);

/** The customer page's trends from its watches' runs, oldest first (pure). */
export function trendsOf(organizationId: string, runs: MeasuredRun[]): CustomerMeasurements {
  const latest = runs.at(-1)?.measured;
  const testPoints = pointsOf(
    runs,
    testsOf,
    (test) => test.testId,
    (test) => test.availability,
  );
  const rulePoints = pointsOf(
    runs,
    rulesOf,
    (rule) => rule.ruleId,
    (rule) => rule.alerts,
  );
  const worst = (latest ? (testsOf(latest) ?? []) : [])
    .filter((test) => test.availability !== null)
    .sort((a, b) => (a.availability ?? 0) - (b.availability ?? 0))
    .slice(0, MEASURED_TREND_TESTS);
  // A fall is against the run before that measured the test (as the page's "was"), by the largest first.
  const fell = (latest ? (testsOf(latest) ?? []) : []).flatMap((test) => {
    const points = testPoints(`${test.accountGroup}|${test.testId}`);
    const before = points.slice(0, -1).findLast((point) => point.value !== null)?.value ?? null;
    if (before === null || test.availability === null) return [];
    // Both are one decimal, so is the fall: 92.3 → 91.3 is one point, not 0.9999….
    const fall = Math.round((before - test.availability) * 10) / 10;
    if (fall < MEASURED_FELL_POINTS) return [];
    const { testId, testName, accountGroup, agents, failingAgents } = test;
    return [{ testId, testName, accountGroup, before, latest: test.availability, fall, agents, failingAgents, points }];
  });
  fell.sort((a, b) => b.fall - a.fall || a.latest - b.latest);
  const noisiest = (latest ? (rulesOf(latest) ?? []) : [])
    .filter((rule) => rule.alerts > 0)
    .sort((a, b) => b.alerts - a.alerts)
    .slice(0, MEASURED_TREND_TESTS);
  const each = (value: (measured: Measurements) => number | null) =>
    runs.map((run) => ({ at: run.at, value: value(run.measured) }));
  return {
    organizationId,
    runs: runs.map((run) => ({ at: run.at, watchId: run.watchId })),
    availability: worst.map((test) => ({
      testId: test.testId,
      testName: test.testName,
      accountGroup: test.accountGroup,
      points: testPoints(`${test.accountGroup}|${test.testId}`),
    })),
    fell: fell.slice(0, MEASURED_FELL_TESTS).map(({ fall: _fall, ...test }) => test),
    alerts: each((measured) => rulesOf(measured)?.reduce((sum, rule) => sum + rule.alerts, 0) ?? null),
    noisiestRules: noisiest.map((rule) => ({
      ruleName: rule.ruleName,
      accountGroup: rule.accountGroup,
      points: rulePoints(`${rule.accountGroup}|${rule.ruleId}`),
    })),
    agentsOffline: each((measured) => (measured.agents.ok ? measured.agents.value.offline.length : null)),
    units: runs.map(({ at, measured: { units } }) =>
      units.ok
        ? { at, used: units.value.used, projected: units.value.projected, included: units.value.included }
        : { at, used: null, projected: null, included: null },
    ),
    unknown: latest
      ? PARTS.flatMap((part) => {
          const read = latest[part];
          return read.ok ? [] : [{ part, reason: read.reason }];
        })
      : [],
  };
}

/**
 * A customer's measured trends (decision 0037): what the runs of the watches over it kept, those the caller may see
 * (its own watches, or everyone's for those allowed to see all runs, as the page's health check), in one read.
 */
export class CustomerMeasurementsService {
  constructor(
    private readonly repository: CustomerMeasurementsRepository,
    /** How long the watches keep their runs (`WATCH_HISTORY_DAYS`): no trend reaches further. */
    private readonly historyDays: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async measurements(
    user: SessionUser,
    organizationId: string,
    query: CustomerMeasurementsQuery,
  ): Promise<CustomerMeasurements> {
    const everyone = query.everyone && userMay(user, 'seeAllRuns');
    const days = Math.min(query.days, this.historyDays);
    const since = new Date(this.clock().getTime() - days * DAY_MS);
    const rows = await this.repository.runs(organizationId, since, everyone ? null : user.id);
    const runs = rows.flatMap((row): MeasuredRun[] => {
      // A run kept under an older shape that no longer parses is left out, not drawn as zeros.
      const parsed = measurementsSchema.safeParse(row.measurements);
      return parsed.success ? [{ at: parsed.data.to, watchId: row.watchId, measured: parsed.data }] : [];
    });
    return trendsOf(organizationId, runs);
  }
}
