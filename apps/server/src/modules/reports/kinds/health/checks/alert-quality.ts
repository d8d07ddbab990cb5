import type { EvidenceItem, HealthCheck } from '@ce/contract';
import {
  DAY_MS,
  day,
  finished,
  firstFailure,
  plural,
  type CheckSpec,
  type HealthAlert,
  type HealthInput,
  unknownCheck,
} from './input.js';
import type { RuleDetail } from './measured-input.js';
import { MEASURED_LIMITS as L } from './measured-limits.js';

const ruleItem = (rule: RuleDetail, detail: string): EvidenceItem => ({
  type: 'rule',
  id: rule.ruleId,
  name: rule.ruleName,
  detail,
  accountGroup: rule.accountGroup,
});

/** Alerts by rule, those that started at or after `from`. */
function startedSince(alerts: HealthAlert[], from: number): Map<string, HealthAlert[]> {
  const byRule = new Map<string, HealthAlert[]>();
  for (const alert of alerts) {
    if (Date.parse(alert.startDate) < from) continue;
    const list = byRule.get(alert.ruleId) ?? [];
    list.push(alert);
    byRule.set(alert.ruleId, list);
  }
  return byRule;
}

type Rules = { ok: true; rules: RuleDetail[]; alerts: HealthAlert[] } | { ok: false; check: HealthCheck };

/** The rules' details and the alerts, or the check unknown with the reason one could not be read. */
function rulesAndAlerts(input: HealthInput, spec: CheckSpec): Rules {
  const details = input.measured?.ruleDetails;
  if (!details) return { ok: false, check: unknownCheck(spec, 'The alert rules were not read.') };
  const failure = firstFailure(details, input.alerts);
  if (failure || !details.ok || !input.alerts.ok) return { ok: false, check: unknownCheck(spec, failure ?? '') };
  return { ok: true, rules: details.value, alerts: input.alerts.value };
}

export function alertsNoisy(input: HealthInput): HealthCheck {
  const days = L.resultDays;
  const spec: CheckSpec = {
    id: 'alerts-noisy',
    title: 'Noisy alert rules',
    threshold: `more than ${L.noisyTriggersPerWeek} alerts in ${days} days and more than ${L.noisyTriggersPer100Rounds} per 100 rounds`,
    definition: `Alert rules whose alerts that started in the last ${days} days number more than ${L.noisyTriggersPerWeek} (three a day) and more than ${L.noisyTriggersPer100Rounds} per 100 rounds their tests made in those days (/test-results): a rule is weighed by how often its tests run.`,
    remediation:
      'Raise the rule\'s rounds violating ("2 of 3" instead of "1 of 1") or its threshold, or fix what keeps failing: people stop reading a rule that fires this often.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  const results = input.measured?.results;
  if (!results?.ok) return unknownCheck(spec, results?.reason ?? 'The results were not read.');
  const rounds = new Map(results.value.map((test) => [test.testId, test.rounds]));
  const started = startedSince(read.alerts, input.now.getTime() - days * DAY_MS);
  const items = read.rules.flatMap((rule) => {
    const count = started.get(rule.ruleId)?.length ?? 0;
    const made = rule.testIds.reduce((sum, testId) => sum + (rounds.get(testId) ?? 0), 0);
    const per100 = made ? (count / made) * 100 : Number.POSITIVE_INFINITY;
    if (count <= L.noisyTriggersPerWeek || per100 <= L.noisyTriggersPer100Rounds) return [];
    return [
      ruleItem(
        rule,
        `${plural(count, 'alert')} in ${days} days over ${plural(made, 'round')} of its tests (${Math.round(per100 * 10) / 10} per 100 rounds)`,
      ),
    ];
  });
  return finished(spec, items, 'warn');
}

export function alertsFlapping(input: HealthInput): HealthCheck {
  const days = L.resultDays;
  const spec: CheckSpec = {
    id: 'alerts-flapping',
    title: 'Flapping alert rules',
    threshold: `${L.flappingCycles} or more alerts cleared within ${L.flappingClearMinutes} minutes, in ${days} days`,
    definition: `Alert rules with at least ${L.flappingCycles} alerts in the last ${days} days that cleared within ${L.flappingClearMinutes} minutes of triggering: trigger, clear, trigger again.`,
    remediation:
      'Require more rounds violating before the rule triggers, so a passing blip does not page anyone; or fix the intermittent failure.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  const started = startedSince(read.alerts, input.now.getTime() - days * DAY_MS);
  const items = read.rules.flatMap((rule) => {
    const cycles = (started.get(rule.ruleId) ?? []).filter(
      (alert) =>
        alert.endDate !== undefined &&
        Date.parse(alert.endDate) - Date.parse(alert.startDate) <= L.flappingClearMinutes * 60_000,
    ).length;
    return cycles >= L.flappingCycles
      ? [ruleItem(rule, `${plural(cycles, 'alert')} in ${days} days cleared within ${L.flappingClearMinutes} minutes`)]
      : [];
  });
  return finished(spec, items, 'warn');
}

export function alertsSilent(input: HealthInput): HealthCheck {
  const days = L.silentDays;
  const spec: CheckSpec = {
    id: 'alerts-silent',
    title: 'Alert rules that never fired',
    threshold: `no alert in ${days} days`,
    definition: `Alert rules with tests and no alert that started in the last ${days} days: stable, or stuck (an alert active since before the window, or a condition that cannot be met).`,
    remediation:
      'Check that the rule can still fire (its condition, its tests); a stuck alert active for weeks means the condition is permanent: fix it or retune the rule.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  const started = startedSince(read.alerts, input.now.getTime() - days * DAY_MS);
  const stuck = new Map(read.alerts.filter((alert) => !alert.endDate).map((alert) => [alert.ruleId, alert]));
  const items = read.rules
    .filter((rule) => rule.testIds.length > 0 && !started.has(rule.ruleId))
    .map((rule) => {
      const active = stuck.get(rule.ruleId);
      return ruleItem(
        rule,
        active
          ? `stuck: one alert active since ${day(active.startDate)}, none new in ${days} days`
          : `no alert in ${days} days over ${plural(rule.testIds.length, 'test')}`,
      );
    });
  return finished(spec, items, 'warn');
}

export function alertsNotifyNobody(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'alerts-notify-nobody',
    title: 'Alert rules that notify nobody',
    threshold: 'no recipient and no integration',
    definition:
      'Alert rules over tests whose detail (/alerts/rules/{id}: notifications) names no email recipient and no integration (third party or webhook): they fire and nobody hears.',
    remediation: 'Give the rule the people or the integration that act on it, or delete it.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  const items = read.rules
    .filter((rule) => rule.testIds.length > 0 && !rule.notifies)
    .map((rule) => ruleItem(rule, `notifies nobody; over ${plural(rule.testIds.length, 'test')}`));
  return finished(spec, items, 'fail');
}

export function alertsMissingTests(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'alerts-missing-tests',
    title: 'Alert rules over tests that no longer exist',
    threshold: 'any test named and gone',
    definition:
      "Alert rules whose detail names tests (testIds) that are not among the account group's tests (/tests): the rule was left behind when they were deleted.",
    remediation: 'Take the deleted tests off the rule, or delete the rule if none of its tests is left.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  if (!input.tests.ok) return unknownCheck(spec, input.tests.reason);
  const tests = new Set(input.tests.value.map((test) => `${test.accountGroup}|${test.testId}`));
  const items = read.rules.flatMap((rule) => {
    const gone = rule.testIds.filter((testId) => !tests.has(`${rule.accountGroup}|${testId}`));
    return gone.length
      ? [
          ruleItem(
            rule,
            `${plural(gone.length, 'test')} gone of ${rule.testIds.length} (platform test id${gone.length === 1 ? '' : 's'} ${gone.join(', ')}: the platform keeps no name of a deleted test)`,
          ),
        ]
      : [];
  });
  return finished(spec, items, 'warn');
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export function alertsTimeToClear(input: HealthInput): HealthCheck {
  const days = L.silentDays;
  const spec: CheckSpec = {
    id: 'alerts-time-to-clear',
    title: 'Alerts slow to clear',
    threshold: `median above ${L.timeToClearHours} hours`,
    definition: `Alert rules whose alerts that cleared in the last ${days} days took a median of more than ${L.timeToClearHours} hours from trigger to clear.`,
    remediation:
      'An alert that stays on for days is either not acted on or not actionable: give it an owner, or tune it to what someone will fix.',
  };
  const read = rulesAndAlerts(input, spec);
  if (!read.ok) return read.check;
  const from = input.now.getTime() - days * DAY_MS;
  const cleared = new Map<string, number[]>();
  for (const alert of read.alerts) {
    if (!alert.endDate || Date.parse(alert.endDate) < from) continue;
    const list = cleared.get(alert.ruleId) ?? [];
    list.push(Date.parse(alert.endDate) - Date.parse(alert.startDate));
    cleared.set(alert.ruleId, list);
  }
  const items = read.rules.flatMap((rule) => {
    const durations = cleared.get(rule.ruleId);
    if (!durations?.length) return [];
    const hours = median(durations) / 3_600_000;
    return hours > L.timeToClearHours
      ? [
          ruleItem(
            rule,
            `median ${Math.round(hours * 10) / 10} hours to clear over ${plural(durations.length, 'alert')}`,
          ),
        ]
      : [];
  });
  return finished(spec, items, 'warn');
}
