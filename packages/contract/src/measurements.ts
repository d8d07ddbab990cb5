import { z } from 'zod';

/**
 * What the platform measured at a customer, as a health check summed it up and a watch run keeps it (decision 0037):
 * small enough to keep per run as long as the score history, so trends exist past the platform's own windows.
 * Each part is read or not: one the token could not read says why, never a made-up or zero figure.
 */
const readableOf = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), reason: z.string() }),
  ]);

/** One test's rounds over the results window. */
export const testMeasurementSchema = z.object({
  testId: z.string(),
  testName: z.string(),
  accountGroup: z.string(),
  /** Good agent-rounds in percent, one decimal (null when no agent made a round). */
  availability: z.number().nullable(),
  /** Mean of the rounds' average latency, ms, one decimal (null where the type measures none). */
  latencyMs: z.number().nullable(),
  /** Agent-rounds, good ones, and distinct rounds. */
  results: z.number().int(),
  good: z.number().int(),
  rounds: z.number().int(),
  /** Agents that made rounds, and of those the ones whose last round failed. */
  agents: z.number().int(),
  failingAgents: z.number().int(),
  /** The earliest start of a failing run that reaches the window's end, among the failing agents. */
  failingSince: z.string().nullable(),
});
export type TestMeasurement = z.infer<typeof testMeasurementSchema>;

/** One alert rule's alerts that started in the results window. */
export const ruleMeasurementSchema = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  accountGroup: z.string(),
  alerts: z.number().int(),
  /** Of those, the ones that cleared, and the median minutes they took (null when none cleared). */
  cleared: z.number().int(),
  medianClearMinutes: z.number().nullable(),
  /** Rounds its tests made in the window (what the alert volume is weighed by). */
  rounds: z.number().int(),
});
export type RuleMeasurement = z.infer<typeof ruleMeasurementSchema>;

export const agentMeasurementSchema = z.object({
  /** Enterprise agents of the account groups read. */
  enterprise: z.number().int(),
  /** Enterprise agents offline, each since its last round (null when the platform gives no last seen). */
  offline: z.array(
    z.object({ agentId: z.string(), agentName: z.string(), accountGroup: z.string(), since: z.string().nullable() }),
  ),
  erroring: z.number().int(),
  outdated: z.number().int(),
});
export type AgentMeasurement = z.infer<typeof agentMeasurementSchema>;

export const unitsMeasurementSchema = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  used: z.number(),
  projected: z.number(),
  /** The plan's included units (null when the platform names none). */
  included: z.number().nullable(),
  /** The day the projection crosses the included units inside the period (null when it does not). */
  runOutAt: z.string().nullable(),
  /** The largest consumers, most first. */
  consumers: z.array(z.object({ testName: z.string(), accountGroup: z.string(), used: z.number() })),
  /** Units of instant tests in the period. */
  instant: z.number(),
});
export type UnitsMeasurement = z.infer<typeof unitsMeasurementSchema>;

export const endpointMeasurementSchema = z.object({
  inUse: z.number().int(),
  licensed: z.number().int().nullable(),
  /** Endpoint agents by version, most first. */
  versions: z.array(z.object({ version: z.string(), agents: z.number().int() })),
});
export type EndpointMeasurement = z.infer<typeof endpointMeasurementSchema>;

/** Who changed what at the customer in the window: the tests' versions and the platform's audit events, by person. */
export const personChangesSchema = z.object({
  /** The person as the platform names them (an email, or the name of an API integration). */
  person: z.string(),
  /** Changes the platform's audit log records of them, and test versions they made. */
  events: z.number().int(),
  testVersions: z.number().int(),
  /** What they changed, in the audit log's words, most first (at most five). */
  what: z.array(z.object({ event: z.string(), count: z.number().int() })),
  /** Made through the toolkit (our journal names the change): "by us". */
  throughToolkit: z.number().int(),
  lastAt: z.string(),
});
export type PersonChanges = z.infer<typeof personChangesSchema>;

export const measurementsSchema = z.object({
  /** The results window. */
  from: z.string(),
  to: z.string(),
  tests: readableOf(z.array(testMeasurementSchema)),
  rules: readableOf(z.array(ruleMeasurementSchema)),
  agents: readableOf(agentMeasurementSchema),
  units: readableOf(unitsMeasurementSchema),
  endpoints: readableOf(endpointMeasurementSchema),
  changes: readableOf(z.array(personChangesSchema)),
});
export type Measurements = z.infer<typeof measurementsSchema>;
export type MeasurementPart = Exclude<keyof Measurements, 'from' | 'to'>;

/** A point of a trend: a watch run's measurement, null when that run could not read it. */
const pointSchema = z.object({ at: z.string(), value: z.number().nullable() });
export type TrendPoint = z.infer<typeof pointSchema>;

/** The customer page's measured trends: what the watches' runs over the customer stored, oldest first. */
export const customerMeasurementsSchema = z.object({
  organizationId: z.string(),
  /** The runs the points come from (a watch run each), oldest first. */
  runs: z.array(z.object({ at: z.string(), watchId: z.string() })),
  /** The tests worst by the latest run's availability (at most `MEASURED_TREND_TESTS`), each with its points. */
  availability: z.array(
    z.object({ testId: z.string(), testName: z.string(), accountGroup: z.string(), points: z.array(pointSchema) }),
  ),
  /**
   * The tests whose availability fell most since the run before that measured them (at least
   * `MEASURED_FELL_POINTS` points; at most `MEASURED_FELL_TESTS`, the largest fall first), whether or not they are
   * among the worst: a test falling from 100% to 91% is what a TAM asks about even where others stay lower.
   */
  fell: z.array(
    z.object({
      testId: z.string(),
      testName: z.string(),
      accountGroup: z.string(),
      /** Availability at that run before, and at the latest run, in percent. */
      before: z.number(),
      latest: z.number(),
      /** At the latest run: agents that made rounds, and of those the ones whose last round failed. */
      agents: z.number().int(),
      failingAgents: z.number().int(),
      points: z.array(pointSchema),
    }),
  ),
  /** Alerts that started in each run's window, all rules; and the noisiest rules by the latest run. */
  alerts: z.array(pointSchema),
  noisiestRules: z.array(z.object({ ruleName: z.string(), accountGroup: z.string(), points: z.array(pointSchema) })),
  agentsOffline: z.array(pointSchema),
  /** Units used and projected in each run's period, and what is included. */
  units: z.array(
    z.object({
      at: z.string(),
      used: z.number().nullable(),
      projected: z.number().nullable(),
      included: z.number().nullable(),
    }),
  ),
  /** What the latest run could not read, in words (the part and why). */
  unknown: z.array(
    z.object({ part: z.enum(['tests', 'rules', 'agents', 'units', 'endpoints', 'changes']), reason: z.string() }),
  ),
});
export type CustomerMeasurements = z.infer<typeof customerMeasurementsSchema>;

/**
 * Which runs the customer page's trends come from: those of the last `days` (at most what the watches keep,
 * `WATCH_HISTORY_DAYS`), of the caller's watches, or everyone's (those allowed to see all runs).
 */
export const customerMeasurementsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(36_500).default(90),
  everyone: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type CustomerMeasurementsQuery = z.infer<typeof customerMeasurementsQuerySchema>;

/** The customer page draws this many tests' availability. */
export const MEASURED_TREND_TESTS = 5;

/** The customer page names this many tests that fell since the run before, and a fall is at least this many points. */
export const MEASURED_FELL_TESTS = 3;
export const MEASURED_FELL_POINTS = 1;
