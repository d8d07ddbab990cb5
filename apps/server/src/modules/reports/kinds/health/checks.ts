import {
  HEALTH_CHECK_WEIGHTS,
  HEALTH_LIMITS,
  STATUS_CREDIT,
  gradeOf,
  type EvidenceItem,
  type HealthCheck,
  type HealthCheckId,
  type HealthProfile,
  type HealthStatus,
} from '@ce/contract';
import type { Readable } from '../../../../report-kit/platform-reads.js';

const DAY_MS = 86_400_000;

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
}

const ageInDays = (date: string | undefined, now: Date): number | undefined => {
  const time = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(time) ? undefined : (now.getTime() - time) / DAY_MS;
};
const day = (date: string) => date.slice(0, 10);
const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

interface CheckSpec {
  id: HealthCheckId;
  title: string;
  threshold: string;
  definition: string;
  remediation: string;
}

function unknownCheck(spec: CheckSpec, reason: string): HealthCheck {
  return { ...spec, status: 'unknown', weight: HEALTH_CHECK_WEIGHTS[spec.id], reason, items: [] };
}

function finished(spec: CheckSpec, items: EvidenceItem[], whenFound: HealthStatus): HealthCheck {
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
function firstFailure(...reads: Readable<unknown>[]): string | undefined {
  for (const read of reads) if (!read.ok) return read.reason;
  return undefined;
}

function signInDetail(user: HealthUser, now: Date): string {
  const age = ageInDays(user.lastLogin, now);
  return age === undefined
    ? `never signed in${user.dateRegistered ? ` (registered ${day(user.dateRegistered)})` : ''}`
    : `last signed in ${day(user.lastLogin ?? '')} (${Math.floor(age)} days ago)`;
}

/** Not signed in for more than `days` days; never signed in and registered more than `days` days ago. */
export function isAway(user: HealthUser, days: number, now: Date): boolean {
  const age = ageInDays(user.lastLogin, now);
  if (age !== undefined) return age > days;
  const registered = ageInDays(user.dateRegistered, now);
  return registered === undefined || registered > days;
}

export function inactiveUsers(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.inactiveUsersDays;
  const spec: CheckSpec = {
    id: 'inactive-users',
    title: 'Inactive users',
    threshold: `${days} days`,
    definition: `Users of the selected account groups whose last sign-in (the platform's lastLogin) is more than ${days} days ago, or who never signed in and were registered more than ${days} days ago.`,
    remediation:
      'Remove users who no longer need access, or ask them to sign in; unused accounts keep permissions nobody watches.',
  };
  if (!input.users.ok) return unknownCheck(spec, input.users.reason);
  const items = input.users.value
    .filter((user) => isAway(user, days, input.now))
    .map((user): EvidenceItem => ({
      type: 'user',
      id: user.uid,
      name: `${user.name} <${user.email}>`,
      detail: signInDetail(user, input.now),
      accountGroup: user.accountGroups.join(', '),
    }));
  return finished(spec, items, 'warn');
}

export function loginFrequency(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.loginFrequencyDays;
  const spec: CheckSpec = {
    id: 'login-frequency',
    title: 'Login frequency of administrators',
    threshold: `${days} days`,
    definition: `Users holding a role with management permissions (Organization Admin, Account Admin or a custom role that manages) who have not signed in within ${days} days: administrator accounts should be used at least that often, or given up.`,
    remediation:
      'Downgrade administrators who do not sign in to a role without management permissions, or remove them.',
  };
  if (!input.users.ok) return unknownCheck(spec, input.users.reason);
  const items = input.users.value
    .filter((user) => user.admin && isAway(user, days, input.now))
    .map((user): EvidenceItem => ({
      type: 'user',
      id: user.uid,
      name: `${user.name} <${user.email}>`,
      detail: `${user.roles.join(', ')}: ${signInDetail(user, input.now)}`,
      accountGroup: user.accountGroups.join(', '),
    }));
  return finished(spec, items, 'fail');
}

/** The share of [from, to] covered by the union of the alerts' active intervals. */
export function activeShare(alerts: Pick<HealthAlert, 'startDate' | 'endDate'>[], from: number, to: number): number {
  const spans = alerts
    .map((alert) => [
      Math.max(from, Date.parse(alert.startDate)),
      Math.min(to, alert.endDate ? Date.parse(alert.endDate) : to),
    ])
    .filter(([start = 0, end = 0]) => end > start)
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
  let covered = 0;
  let reach = from;
  for (const [start = 0, end = 0] of spans) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return to > from ? covered / (to - from) : 0;
}

function alertsByRule(alerts: HealthAlert[]): Map<string, HealthAlert[]> {
  const byRule = new Map<string, HealthAlert[]>();
  for (const alert of alerts) byRule.set(alert.ruleId, [...(byRule.get(alert.ruleId) ?? []), alert]);
  return byRule;
}

function ruleItem(ruleId: string, rules: Map<string, HealthRule>, detail: string): EvidenceItem {
  const rule = rules.get(ruleId);
  return {
    type: 'rule',
    id: ruleId,
    name: rule?.ruleName ?? `Rule ${ruleId}`,
    detail,
    ...(rule ? { accountGroup: rule.accountGroup } : {}),
  };
}

export function alertsActive(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.alertsActiveDays;
  const spec: CheckSpec = {
    id: 'alerts-active',
    title: 'Alerts active most of the time',
    threshold: `over ${percent(HEALTH_LIMITS.activeShare)} of the last ${days} days`,
    definition: `Alert rules whose alerts (on any test) were active more than ${percent(HEALTH_LIMITS.activeShare)} of the last ${days} days, counting each moment once however many alerts overlap.`,
    remediation:
      'An alert that is always on is noise: fix the condition it reports, or tune the rule (thresholds, rounds violating) so it means something again.',
  };
  const failure = firstFailure(input.alerts, input.rules);
  if (failure || !input.alerts.ok || !input.rules.ok) return unknownCheck(spec, failure ?? '');
  const to = input.now.getTime();
  const from = to - days * DAY_MS;
  const rules = new Map(input.rules.value.map((rule) => [rule.ruleId, rule]));
  const items: EvidenceItem[] = [];
  for (const [ruleId, alerts] of alertsByRule(input.alerts.value)) {
    const share = activeShare(alerts, from, to);
    if (share > HEALTH_LIMITS.activeShare)
      items.push(
        ruleItem(
          ruleId,
          rules,
          `active ${percent(share)} of the last ${days} days (${Math.round(share * days * 10) / 10} days)`,
        ),
      );
  }
  return finished(spec, items, 'fail');
}

export function alertsCount(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.alertsCountDays;
  const spec: CheckSpec = {
    id: 'alerts-count',
    title: 'Alert rules triggered too often',
    threshold: `more than ${HEALTH_LIMITS.triggerCount} times in ${days} days`,
    definition: `Alert rules that triggered more than ${HEALTH_LIMITS.triggerCount} alerts starting in the last ${days} days.`,
    remediation:
      'A rule that fires this often trains people to ignore it: raise its threshold or rounds violating, or fix what keeps failing.',
  };
  const failure = firstFailure(input.alerts, input.rules);
  if (failure || !input.alerts.ok || !input.rules.ok) return unknownCheck(spec, failure ?? '');
  const from = input.now.getTime() - days * DAY_MS;
  const rules = new Map(input.rules.value.map((rule) => [rule.ruleId, rule]));
  const items: EvidenceItem[] = [];
  for (const [ruleId, alerts] of alertsByRule(input.alerts.value)) {
    const count = alerts.filter((alert) => Date.parse(alert.startDate) >= from).length;
    if (count > HEALTH_LIMITS.triggerCount)
      items.push(ruleItem(ruleId, rules, `triggered ${count} times in the last ${days} days`));
  }
  return finished(spec, items, 'warn');
}

export function trendingIssueTests(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.trendingIssueDays;
  const spec: CheckSpec = {
    id: 'trending-issue-tests',
    title: 'Tests with a growing number of alerts',
    threshold: `${days} days`,
    definition: `Tests with at least ${HEALTH_LIMITS.trendingMinAlerts} alerts starting in the last ${days} days, more of them in the second half of that window than in the first: an issue that is getting worse.`,
    remediation: 'Look into these tests first: their target, network path or agents are degrading.',
  };
  const failure = firstFailure(input.alerts, input.tests);
  if (failure || !input.alerts.ok || !input.tests.ok) return unknownCheck(spec, failure ?? '');
  const to = input.now.getTime();
  const from = to - days * DAY_MS;
  const middle = from + (to - from) / 2;
  const counts = new Map<string, { first: number; second: number }>();
  for (const alert of input.alerts.value) {
    const start = Date.parse(alert.startDate);
    if (!alert.testId || start < from || start > to) continue;
    const count = counts.get(alert.testId) ?? { first: 0, second: 0 };
    if (start < middle) count.first += 1;
    else count.second += 1;
    counts.set(alert.testId, count);
  }
  const tests = new Map(input.tests.value.map((test) => [test.testId, test]));
  const items = [...counts]
    .filter(([, { first, second }]) => first + second >= HEALTH_LIMITS.trendingMinAlerts && second > first)
    .map(([testId, { first, second }]): EvidenceItem => {
      const test = tests.get(testId);
      return {
        type: 'test',
        id: testId,
        name: test?.testName ?? `Test ${testId}`,
        detail: `${plural(first + second, 'alert')} in the last ${days} days: ${first} in the first half, ${second} in the second`,
        ...(test ? { accountGroup: test.accountGroup } : {}),
      };
    });
  return finished(spec, items, 'warn');
}

export function timeoutValues(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.timeoutValuesDays;
  const defaults: Record<string, number> = {
    'http-server': HEALTH_LIMITS.httpTimeLimitDefault,
    'page-load': HEALTH_LIMITS.pageLoadTimeLimitDefault,
  };
  const spec: CheckSpec = {
    id: 'timeout-values',
    title: 'Raised time limits left in place',
    threshold: `${days} days`,
    definition: `HTTP server and page load tests whose time limit is above the platform's default (${HEALTH_LIMITS.httpTimeLimitDefault} s and ${HEALTH_LIMITS.pageLoadTimeLimitDefault} s) and that were not changed for more than ${days} days: a raised time limit hides slow answers and should be a temporary measure.`,
    remediation: 'Bring the time limit back to the default, or set a target time that still reports slow answers.',
  };
  if (!input.tests.ok) return unknownCheck(spec, input.tests.reason);
  const items = input.tests.value
    .filter((test) => {
      const normal = defaults[test.type];
      const unchanged = ageInDays(test.modifiedDate ?? test.createdDate, input.now);
      return (
        normal !== undefined &&
        test.timeLimit !== undefined &&
        test.timeLimit > normal &&
        unchanged !== undefined &&
        unchanged > days
      );
    })
    .map((test): EvidenceItem => ({
      type: 'test',
      id: test.testId,
      name: test.testName,
      detail: `time limit ${test.timeLimit} s (default ${defaults[test.type]} s), unchanged since ${day(test.modifiedDate ?? test.createdDate ?? '')}`,
      accountGroup: test.accountGroup,
    }));
  return finished(spec, items, 'warn');
}

export function unusedTests(input: HealthInput): HealthCheck {
  const days = HEALTH_LIMITS.unusedTestDays;
  const spec: CheckSpec = {
    id: 'unused-tests',
    title: 'Unused tests',
    threshold: `older than ${days} days`,
    definition: `Tests created more than ${days} days ago that are disabled, or that alert nobody (alerts off) and appear on no dashboard widget.`,
    remediation:
      'Delete tests nobody uses, or give them alert rules and a dashboard; the units they use are listed with each test.',
  };
  const failure = firstFailure(input.tests, input.dashboards);
  if (failure || !input.tests.ok || !input.dashboards.ok) return unknownCheck(spec, failure ?? '');
  const shown = new Set(input.dashboards.value.flatMap((dashboard) => dashboard.testIds));
  const units = input.usage.ok ? input.usage.value.testUnits : undefined;
  const items = input.tests.value
    .filter((test) => {
      const age = ageInDays(test.createdDate, input.now);
      return age !== undefined && age > days && (!test.enabled || (!test.alertsEnabled && !shown.has(test.testId)));
    })
    .map((test): EvidenceItem => {
      const used = units?.get(test.testId);
      return {
        type: 'test',
        id: test.testId,
        name: test.testName,
        detail: `${test.enabled ? 'alerts off and on no dashboard' : 'disabled'}, created ${day(test.createdDate ?? '')} (${Math.floor(ageInDays(test.createdDate, input.now) ?? 0)} days ago)`,
        accountGroup: test.accountGroup,
        ...(units ? { cloudUnits: used ?? 0 } : {}),
      };
    });
  return finished(spec, items, 'warn');
}

export function sparseDashboards(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'sparse-dashboards',
    title: 'Dashboards with fewer than two widgets',
    threshold: `fewer than ${HEALTH_LIMITS.minWidgets} widgets`,
    definition: `Dashboards of the selected account groups with fewer than ${HEALTH_LIMITS.minWidgets} widgets.`,
    remediation: 'Complete these dashboards with the views their audience needs, or delete them.',
  };
  if (!input.dashboards.ok) return unknownCheck(spec, input.dashboards.reason);
  const items = input.dashboards.value
    .filter((dashboard) => dashboard.widgetCount < HEALTH_LIMITS.minWidgets)
    .map((dashboard): EvidenceItem => ({
      type: 'dashboard',
      id: dashboard.dashboardId,
      name: dashboard.title,
      detail: plural(dashboard.widgetCount, 'widget'),
      accountGroup: dashboard.accountGroup,
    }));
  return finished(spec, items, 'warn');
}

export function unitsProjected(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'units-projected',
    title: 'Cloud units projected against the plan',
    threshold: `${percent(HEALTH_LIMITS.unitsWarnShare)} of the included units`,
    definition: `The cloud units the platform projects for this billing period (/usage) against the units the plan includes: above ${percent(HEALTH_LIMITS.unitsWarnShare)} warns, above 100% fails.`,
    remediation:
      'Reduce test frequency or agents on low-value tests (see unused tests), or plan more units before the overage.',
  };
  if (!input.usage.ok) return unknownCheck(spec, input.usage.reason);
  const { cloudUnitsProjected, cloudUnitsIncluded } = input.usage.value;
  if (!cloudUnitsIncluded) return unknownCheck(spec, 'The plan states no included cloud units.');
  const share = cloudUnitsProjected / cloudUnitsIncluded;
  const status: HealthStatus = share > 1 ? 'fail' : share > HEALTH_LIMITS.unitsWarnShare ? 'warn' : 'pass';
  const item: EvidenceItem = {
    type: 'organization',
    id: 'cloud-units',
    name: 'Cloud units',
    detail: `${cloudUnitsProjected.toLocaleString('en-US')} projected of ${cloudUnitsIncluded.toLocaleString('en-US')} included (${percent(share)})`,
  };
  return { ...spec, status, weight: HEALTH_CHECK_WEIGHTS[spec.id], items: status === 'pass' ? [] : [item] };
}

/** Every check, in the order of HEALTH_CHECK_IDS. */
export function runChecks(input: HealthInput, profile: HealthProfile): HealthCheck[] {
  return [
    inactiveUsers(input, profile),
    loginFrequency(input, profile),
    alertsActive(input, profile),
    alertsCount(input, profile),
    trendingIssueTests(input, profile),
    timeoutValues(input, profile),
    unusedTests(input),
    sparseDashboards(input),
    unitsProjected(input),
  ];
}

/** The score out of 100: each known check's weight times its credit, over the weights of known checks. */
export function scoreOf(checks: HealthCheck[]): { value: number; grade: string } {
  const known = checks.filter((check) => check.status !== 'unknown');
  const weights = known.reduce((sum, check) => sum + check.weight, 0);
  if (weights === 0) return { value: 0, grade: gradeOf(0) };
  const earned = known.reduce(
    (sum, check) => sum + check.weight * STATUS_CREDIT[check.status as Exclude<HealthStatus, 'unknown'>],
    0,
  );
  const value = Math.round((earned / weights) * 100);
  return { value, grade: gradeOf(value) };
}
