import { HEALTH_LIMITS, type EvidenceItem, type HealthCheck, type HealthProfile } from '@ce/contract';
import {
  DAY_MS,
  percent,
  plural,
  type CheckSpec,
  unknownCheck,
  finished,
  firstFailure,
  type HealthRule,
  type HealthAlert,
  type HealthInput,
} from './input.js';

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
