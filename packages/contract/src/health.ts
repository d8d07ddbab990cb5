import { z } from 'zod';
import { measurementsSchema } from './measurements.js';
import { AHC_IE_DAYS_RANGES, AHC_TABLES } from './reports.js';

/** The three account health check kinds; all read the platform through v7. */
export const HEALTH_KINDS = ['ahc-v6', 'ahc-v7', 'ahc-ie'] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];

/**
 * The thresholds of spec section 9, in days. "AHC v6" is the legacy profile, "AHC v7" the current one;
 * AHC-IE uses the current profile.
 */
export interface HealthProfile {
  inactiveUsersDays: number;
  loginFrequencyDays: number;
  alertsActiveDays: number;
  alertsCountDays: number;
  trendingIssueDays: number;
  timeoutValuesDays: number;
}
export const HEALTH_PROFILES: Record<'v6' | 'v7', HealthProfile> = {
  v6: {
    inactiveUsersDays: 31,
    loginFrequencyDays: 45,
    alertsActiveDays: 30,
    alertsCountDays: 30,
    trendingIssueDays: 45,
    timeoutValuesDays: 45,
  },
  v7: {
    inactiveUsersDays: 45,
    loginFrequencyDays: 90,
    alertsActiveDays: 30,
    alertsCountDays: 30,
    trendingIssueDays: 45,
    timeoutValuesDays: 45,
  },
};
export const profileOf = (kind: HealthKind): HealthProfile => HEALTH_PROFILES[kind === 'ahc-v6' ? 'v6' : 'v7'];

/** The deliverables of spec section 9. */
export const HEALTH_LIMITS = {
  /** An alert rule is flagged when its alerts were active more than this share of the window. */
  activeShare: 0.5,
  /** An alert rule is flagged when it triggered more than this many times in the window. */
  triggerCount: 10,
  /** A test is unused when it is older than this many days (and disabled, or silent and on no dashboard). */
  unusedTestDays: 180,
  /** A dashboard needs at least this many widgets. */
  minWidgets: 2,
  /** A trending test has at least this many alerts in the window, more of them in its second half. */
  trendingMinAlerts: 3,
  /** Projected cloud units above this share of the included units warn; above the whole, fail. */
  unitsWarnShare: 0.9,
  /** The platform's default time limits in seconds (v7 document: httpTimeLimit 5, pageLoadTimeLimit 10). */
  httpTimeLimitDefault: 5,
  pageLoadTimeLimitDefault: 10,
} as const;

/** Check ids are stable: findings.json, the changes between runs and the spreadsheets key on them. */
export const HEALTH_CONFIGURATION_CHECK_IDS = [
  'inactive-users',
  'login-frequency',
  'alerts-active',
  'alerts-count',
  'trending-issue-tests',
  'timeout-values',
  'unused-tests',
  'sparse-dashboards',
  'units-projected',
] as const;
/**
 * The measured checks (issue 58, decision 0037): what the customer's monitoring measured (results, alerts that
 * fired, agents, units). AHC v7 and AHC-IE make them after the configuration checks; AHC v6 does not.
 */
export const HEALTH_MEASURED_CHECK_IDS = [
  'test-availability',
  'tests-always-failing',
  'agent-test-pairs-failing',
  'tests-without-agents',
  'agents-offline',
  'agents-erroring',
  'agent-offline-notifications',
  'endpoint-agents-licensed',
  'alerts-noisy',
  'alerts-flapping',
  'alerts-silent',
  'alerts-notify-nobody',
  'alerts-missing-tests',
  'alerts-time-to-clear',
  'units-runway',
  'changes-by-person',
] as const;
export const HEALTH_CHECK_IDS = [...HEALTH_CONFIGURATION_CHECK_IDS, ...HEALTH_MEASURED_CHECK_IDS] as const;
export type HealthCheckId = (typeof HEALTH_CHECK_IDS)[number];

/**
 * How much each check weighs in the score: the configuration checks' weights add up to 100, the measured checks'
 * to another 100 (a report with both weighs what was configured and what was measured alike).
 */
export const HEALTH_CHECK_WEIGHTS: Record<HealthCheckId, number> = {
  'inactive-users': 10,
  'login-frequency': 15,
  'alerts-active': 15,
  'alerts-count': 10,
  'trending-issue-tests': 10,
  'timeout-values': 10,
  'unused-tests': 10,
  'sparse-dashboards': 5,
  'units-projected': 15,
  'test-availability': 12,
  'tests-always-failing': 10,
  'agent-test-pairs-failing': 6,
  'tests-without-agents': 8,
  'agents-offline': 8,
  'agents-erroring': 4,
  'agent-offline-notifications': 6,
  'endpoint-agents-licensed': 4,
  'alerts-noisy': 8,
  'alerts-flapping': 6,
  'alerts-silent': 3,
  'alerts-notify-nobody': 8,
  'alerts-missing-tests': 4,
  'alerts-time-to-clear': 5,
  'units-runway': 8,
  // Informational: who changed what is said, not graded.
  'changes-by-person': 0,
};

export const HEALTH_STATUSES = ['pass', 'warn', 'fail', 'unknown'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** A check that finds something counts this share of its weight; pass counts all of it, fail none. */
export const STATUS_CREDIT: Record<Exclude<HealthStatus, 'unknown'>, number> = { pass: 1, warn: 0.5, fail: 0 };

export const HEALTH_GRADES = [
  { grade: 'A', from: 90 },
  { grade: 'B', from: 80 },
  { grade: 'C', from: 70 },
  { grade: 'D', from: 60 },
  { grade: 'F', from: 0 },
] as const;
export const gradeOf = (score: number): string => HEALTH_GRADES.find((entry) => score >= entry.from)?.grade ?? 'F';

export const EVIDENCE_TYPES = ['user', 'rule', 'test', 'dashboard', 'organization', 'agent', 'account-group'] as const;

export const evidenceItemSchema = z.object({
  type: z.enum(EVIDENCE_TYPES),
  id: z.string(),
  name: z.string(),
  detail: z.string(),
  accountGroup: z.string().optional(),
  /** Cloud units this item used in the billing period so far (from /usage), where known. */
  cloudUnits: z.number().optional(),
});
export type EvidenceItem = z.infer<typeof evidenceItemSchema>;

export const healthCheckSchema = z.object({
  id: z.enum(HEALTH_CHECK_IDS),
  title: z.string(),
  status: z.enum(HEALTH_STATUSES),
  threshold: z.string(),
  weight: z.number(),
  /** How the check is computed, in words (the report prints it). */
  definition: z.string(),
  remediation: z.string(),
  /** Why the status is unknown: the permission the token lacks, or what the platform answered. */
  reason: z.string().optional(),
  items: z.array(evidenceItemSchema),
  /** Cloud units the items used this billing period: what fixing them saves. */
  savings: z.object({ cloudUnits: z.number() }).optional(),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

/** A table of the report: column titles and rows of plain values. */
export const healthTableSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  /** Why the table is empty: the permission the token lacks, or what the platform answered. */
  unavailable: z.string().optional(),
});
export type HealthTable = z.infer<typeof healthTableSchema>;

export const HEALTH_CHANGES = ['new', 'changed', 'resolved'] as const;
export const healthChangeSchema = z.object({
  checkId: z.enum(HEALTH_CHECK_IDS),
  change: z.enum(HEALTH_CHANGES),
  /** The evidence item concerned, or absent when the check's status changed. */
  item: evidenceItemSchema.optional(),
  detail: z.string(),
});
export type HealthChange = z.infer<typeof healthChangeSchema>;

export const healthFindingsSchema = z.object({
  kind: z.enum(HEALTH_KINDS),
  organization: z.object({ id: z.string(), name: z.string() }),
  accountGroups: z.array(z.object({ aid: z.string(), accountGroupName: z.string() })),
  generatedAt: z.string(),
  profile: z.object({
    inactiveUsersDays: z.number(),
    loginFrequencyDays: z.number(),
    alertsActiveDays: z.number(),
    alertsCountDays: z.number(),
    trendingIssueDays: z.number(),
    timeoutValuesDays: z.number(),
  }),
  /** AHC-IE: the window of its alert activity table, in days. */
  daysRange: z.number().optional(),
  score: z.object({ value: z.number(), grade: z.string() }),
  checks: z.array(healthCheckSchema),
  tables: z.partialRecord(z.enum(AHC_TABLES), healthTableSchema),
  changes: z.object({
    previousAt: z.string().nullable(),
    items: z.array(healthChangeSchema),
    /** The score of every stored run of this kind for this organization, oldest first, this one last. */
    trend: z.array(z.object({ at: z.string(), score: z.number() })),
  }),
  /** What the platform measured (AHC v7 and AHC-IE): what a watch run keeps for the trends (decision 0037). */
  measurements: measurementsSchema.optional(),
});
export type HealthFindings = z.infer<typeof healthFindingsSchema>;

/** The AHC-IE configuration step: which tables, over how many days. */
export const ahcIeOptionsSchema = z.object({
  daysRange: z
    .number()
    .int()
    .refine((value) => (AHC_IE_DAYS_RANGES as readonly number[]).includes(value), {
      message: `The days range is one of ${AHC_IE_DAYS_RANGES.join(', ')}`,
    })
    .default(31),
  tables: z
    .array(z.enum(AHC_TABLES))
    .min(1, 'Choose at least one table')
    .default([...AHC_TABLES]),
});
export type AhcIeOptions = z.infer<typeof ahcIeOptionsSchema>;
