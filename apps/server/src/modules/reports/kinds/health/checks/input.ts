import {
  HEALTH_CHECK_WEIGHTS,
  type EvidenceItem,
  type HealthCheck,
  type HealthCheckId,
  type HealthStatus,
} from '@ce/contract';
import type { Readable } from '../../../../../report-kit/platform-reads.js';
import type { MeasuredInput } from './measured-input.js';

export const DAY_MS = 86_400_000;

export interface HealthUser {
  uid: string;
  name: string;
  email: string;
  lastLogin?: string;
  dateRegistered?: string;
  /** Holds a role with management permissions in one of the account groups read. */
  admin: boolean;
  roles: string[];
  accountGroups: string[];
}

export interface HealthTest {
  testId: string;
  testName: string;
  type: string;
  enabled: boolean;
  alertsEnabled: boolean;
  createdDate?: string;
  modifiedDate?: string;
  /** httpTimeLimit (http-server) or pageLoadTimeLimit (page-load), in seconds, when the type has one. */
  timeLimit?: number;
  accountGroup: string;
}

export interface HealthRule {
  ruleId: string;
  ruleName: string;
  severity: string;
  accountGroup: string;
}

export interface HealthAlert {
  id: string;
  ruleId: string;
  testId?: string;
  severity: string;
  startDate: string;
  endDate?: string;
  accountGroup: string;
}

export interface HealthDashboard {
  dashboardId: string;
  title: string;
  widgetCount: number;
  /** Tests the dashboard's widgets filter on: a test shown on a dashboard is in use. */
  testIds: string[];
  accountGroup: string;
}

export interface HealthUsage {
  cloudUnitsUsed: number;
  cloudUnitsProjected: number;
  cloudUnitsIncluded?: number;
  /** Cloud units each test used this billing period. */
  testUnits: Map<string, number>;
}

export interface HealthInput {
  now: Date;
  users: Readable<HealthUser[]>;
  tests: Readable<HealthTest[]>;
  rules: Readable<HealthRule[]>;
  alerts: Readable<HealthAlert[]>;
  dashboards: Readable<HealthDashboard[]>;
  usage: Readable<HealthUsage>;
  /** What the monitoring measured (AHC v7 and AHC-IE): without it, only the configuration checks are made. */
  measured?: MeasuredInput;
}

export const ageInDays = (date: string | undefined, now: Date): number | undefined => {
  const time = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(time) ? undefined : (now.getTime() - time) / DAY_MS;
};
export const day = (date: string) => date.slice(0, 10);
export const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export interface CheckSpec {
  id: HealthCheckId;
  title: string;
  threshold: string;
  definition: string;
  remediation: string;
}

export function unknownCheck(spec: CheckSpec, reason: string): HealthCheck {
  return { ...spec, status: 'unknown', weight: HEALTH_CHECK_WEIGHTS[spec.id], reason, items: [] };
}

export function finished(spec: CheckSpec, items: EvidenceItem[], whenFound: HealthStatus): HealthCheck {
  const units = items.reduce((sum, item) => sum + (item.cloudUnits ?? 0), 0);
  return {
    ...spec,
    status: items.length ? whenFound : 'pass',
    weight: HEALTH_CHECK_WEIGHTS[spec.id],
    items,
    ...(items.some((item) => item.cloudUnits !== undefined) ? { savings: { cloudUnits: units } } : {}),
  };
}

/** The first of several reads that failed, as the reason a check could not be made. */
export function firstFailure(...reads: Readable<unknown>[]): string | undefined {
  for (const read of reads) if (!read.ok) return read.reason;
  return undefined;
}
