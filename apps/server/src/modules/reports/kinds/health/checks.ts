import { gradeOf, STATUS_CREDIT, type HealthCheck, type HealthProfile, type HealthStatus } from '@ce/contract';
import { activeShare, alertsActive, alertsCount, trendingIssueTests } from './checks/alerts.js';
import { sparseDashboards, timeoutValues, unitsProjected, unusedTests } from './checks/configuration.js';
import type { HealthInput } from './checks/input.js';
import { inactiveUsers, isAway, loginFrequency } from './checks/users.js';
import {
  alertsFlapping,
  alertsMissingTests,
  alertsNoisy,
  alertsNotifyNobody,
  alertsSilent,
  alertsTimeToClear,
} from './checks/alert-quality.js';
import {
  agentOfflineNotifications,
  agentsErroring,
  agentsOffline,
  endpointAgentsLicensed,
} from './checks/measured-agents.js';
import {
  agentTestPairsFailing,
  testAvailability,
  testsAlwaysFailing,
  testsWithoutAgents,
} from './checks/measured-tests.js';
import { unitsRunway } from './checks/units-runway.js';
import { changesByPerson } from './checks/changes-by-person.js';

export type {
  HealthAlert,
  HealthDashboard,
  HealthInput,
  HealthRule,
  HealthTest,
  HealthUsage,
  HealthUser,
} from './checks/input.js';
export {
  activeShare,
  alertsActive,
  alertsCount,
  inactiveUsers,
  isAway,
  loginFrequency,
  sparseDashboards,
  timeoutValues,
  trendingIssueTests,
  unitsProjected,
  unusedTests,
};

/** The measured checks, in the order of HEALTH_MEASURED_CHECK_IDS. */
function measuredChecks(input: HealthInput): HealthCheck[] {
  return [
    testAvailability(input),
    testsAlwaysFailing(input),
    agentTestPairsFailing(input),
    testsWithoutAgents(input),
    agentsOffline(input),
    agentsErroring(input),
    agentOfflineNotifications(input),
    endpointAgentsLicensed(input),
    alertsNoisy(input),
    alertsFlapping(input),
    alertsSilent(input),
    alertsNotifyNobody(input),
    alertsMissingTests(input),
    alertsTimeToClear(input),
    unitsRunway(input),
    changesByPerson(input),
  ];
}

/**
 * Every check, in the order of HEALTH_CHECK_IDS: the configuration checks, then the measured ones when the input
 * carries measurements (AHC v6 and the closure documents read none).
 */
export function runChecks(input: HealthInput, profile: HealthProfile): HealthCheck[] {
  const configuration = [
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
  return input.measured ? [...configuration, ...measuredChecks(input)] : configuration;
}

/** The score out of 100: each known check's weight times its credit, over the weights of known checks. */
export function scoreOf(checks: Pick<HealthCheck, 'status' | 'weight'>[]): { value: number; grade: string } {
  const known = checks.filter(
    (check): check is Pick<HealthCheck, 'weight'> & { status: Exclude<HealthStatus, 'unknown'> } =>
      check.status !== 'unknown',
  );
  const weights = known.reduce((sum, check) => sum + check.weight, 0);
  if (weights === 0) return { value: 0, grade: gradeOf(0) };
  const earned = known.reduce((sum, check) => sum + check.weight * STATUS_CREDIT[check.status], 0);
  const value = Math.round((earned / weights) * 100);
  return { value, grade: gradeOf(value) };
}
