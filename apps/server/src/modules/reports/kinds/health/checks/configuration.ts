import {
  HEALTH_CHECK_WEIGHTS,
  HEALTH_LIMITS,
  type EvidenceItem,
  type HealthCheck,
  type HealthProfile,
  type HealthStatus,
} from '@ce/contract';
import {
  ageInDays,
  day,
  percent,
  plural,
  type CheckSpec,
  unknownCheck,
  finished,
  firstFailure,
  type HealthInput,
} from './input.js';

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
