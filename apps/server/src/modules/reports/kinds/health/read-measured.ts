import {
  TEST_RESULT_KINDS,
  type AlertRule,
  type PlatformAgent,
  type PlatformApiTestType,
  type PlatformSession,
  type PlatformUsage,
} from '@ce/platform-client';
import { listOf, recordOf } from '../../../../core/json.js';
import { mapPool } from '../../../../core/map-pool.js';
import { READ_CONCURRENCY, readable, type Readable } from '../../../../report-kit/platform-reads.js';
import type { HealthTest } from './checks/input.js';
import {
  TestTally,
  type AgentNotificationRule,
  type MeasuredAgent,
  type RuleDetail,
  type TestMeasure,
  type UnitsMeasure,
} from './checks/measured-input.js';
import { MEASURED_LIMITS } from './checks/measured-limits.js';
import { watchesOffline } from './checks/measured-agents.js';

/** The permission each measured read needs, named when the platform refuses it (v7 document). */
export const MEASURED_PERMISSIONS = {
  results: 'View tests',
  agentRules: 'View agents in account group',
  endpointAgents: 'View endpoint agents',
  units: 'View Billing, and an organization on usage-based pricing',
} as const;

/** The types whose results are per agent and round; BGP is measured by monitors, not agents: not read. */
const hasAgentResults = (type: string): type is PlatformApiTestType =>
  type !== 'bgp' && Object.hasOwn(TEST_RESULT_KINDS, type);

const DAY_MS = 86_400_000;

/** The results window: the last `resultDays` days to the report's moment. */
export function resultsWindow(now: Date): { from: number; to: number } {
  const to = now.getTime();
  return { from: to - MEASURED_LIMITS.resultDays * DAY_MS, to };
}

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Every enabled test's results over the window, streamed page by page and counted as they arrive (one page per
 * test held at a time, `READ_CONCURRENCY` tests at once): memory is the tallies, flat however many rounds.
 */
export async function readResults(
  session: PlatformSession,
  aid: string,
  tests: HealthTest[],
  window: { from: number; to: number },
  signal?: AbortSignal,
): Promise<TestMeasure[]> {
  const measured = tests.flatMap((test) =>
    test.enabled && hasAgentResults(test.type) ? [{ test, type: test.type }] : [],
  );
  const range = { startDate: iso(window.from), endDate: iso(window.to) };
  return mapPool(measured, READ_CONCURRENCY, async ({ test, type }) => {
    const tally = new TestTally();
    for await (const result of session.testResults.stream(type, test.testId, {
      aid,
      range,
      signal,
    }))
      tally.add(result);
    return tally.measure(test);
  });
}

/** Notifies someone: email recipients, or an integration (third party, webhook). */
function notifiesAnyone(rule: AlertRule): boolean {
  const notifications = recordOf(rule.notifications);
  if (listOf(recordOf(notifications.email).recipients).length > 0) return true;
  return ['thirdParty', 'webhook', 'customWebhook'].some((kind) => listOf(notifications[kind]).length > 0);
}

export const ruleDetailOf = (rule: AlertRule, accountGroup: string): RuleDetail => ({
  ruleId: rule.ruleId,
  ruleName: rule.ruleName,
  accountGroup,
  testIds: rule.testIds,
  notifies: notifiesAnyone(rule),
});

/**
 * The agent notification rules, and of those on the agents' last contact the agents each is on: the list does not
 * name them, so each such rule's detail is read once (the other rules' are not needed).
 */
export async function readAgentNotificationRules(
  session: PlatformSession,
  aid: string,
  accountGroup: string,
  signal?: AbortSignal,
): Promise<Readable<AgentNotificationRule[]>> {
  return readable(`the agent notification rules of ${accountGroup}`, MEASURED_PERMISSIONS.agentRules, async () => {
    const rules = await session.agents.notificationRules(aid, signal);
    return mapPool(rules, READ_CONCURRENCY, async (rule): Promise<AgentNotificationRule> => {
      const expression = rule.expression ?? '';
      const agents = watchesOffline(expression)
        ? (await session.agents.notificationRule(rule.ruleId, aid, signal)).agents
        : undefined;
      return {
        ruleId: rule.ruleId,
        ruleName: rule.ruleName ?? `Rule ${rule.ruleId}`,
        expression,
        accountGroup,
        ...(agents ? { agentIds: agents.map((agent) => agent.agentId) } : {}),
      };
    });
  });
}

/**
 * The endpoint agents of the account groups read, by version (most first): one paged read per group, counted as
 * the pages arrive. A refusal leaves the versions out; the licences come from the usage.
 */
export async function readEndpointVersions(
  session: PlatformSession,
  groups: { aid: string; accountGroupName: string }[],
  signal?: AbortSignal,
): Promise<Readable<{ version: string; agents: number }[]>> {
  const counts = new Map<string, number>();
  for (const group of groups) {
    const read = await readable(
      `the endpoint agents of ${group.accountGroupName}`,
      MEASURED_PERMISSIONS.endpointAgents,
      async () => {
        for await (const agent of session.endpointAgents.list(group.aid, signal)) {
          const version = agent.version ?? 'version not given';
          counts.set(version, (counts.get(version) ?? 0) + 1);
        }
      },
    );
    if (!read.ok) return read;
  }
  return {
    ok: true,
    value: [...counts]
      .map(([version, agents]) => ({ version, agents }))
      .sort((a, b) => b.agents - a.agents || b.version.localeCompare(a.version, 'en', { numeric: true })),
  };
}

export function measuredAgentsOf(agents: PlatformAgent[], accountGroup: string): MeasuredAgent[] {
  return agents.map((agent) => ({
    agentId: agent.agentId,
    agentName: agent.agentName,
    agentType: agent.agentType,
    ...(agent.agentState ? { agentState: agent.agentState } : {}),
    ...(agent.lastSeen ? { lastSeen: agent.lastSeen } : {}),
    errors: (agent.errorDetails ?? []).map((error) => error.description ?? error.code ?? 'error'),
    testIds: agent.testIds ?? [],
    accountGroup,
  }));
}

/**
 * The units of the billing period by test, for the organization (one paged read): refused with 403 both without
 * View Billing and for an organization not on usage-based pricing; `/usage` already read tells the two apart.
 */
export async function readUnits(
  session: PlatformSession,
  usage: Readable<PlatformUsage['usage']>,
  groupNames: Map<string, string>,
  signal?: AbortSignal,
): Promise<Readable<UnitsMeasure>> {
  if (!usage.ok) return usage;
  const read = await readable('the units by test', MEASURED_PERMISSIONS.units, async () => {
    const tests: UnitsMeasure['tests'] = [];
    for await (const entry of session.usage.testUnits({ signal }))
      tests.push({
        testId: entry.testId,
        testName: entry.testName ?? `Test ${entry.testId}`,
        accountGroup: entry.accountGroupName ?? groupNames.get(entry.aid ?? '') ?? entry.aid ?? '',
        used: entry.cloudUnitsUsed ?? 0,
        projected: entry.cloudUnitsProjected ?? 0,
        instant: entry.isInstantTest === true,
      });
    return tests;
  });
  if (!read.ok)
    return {
      ok: false,
      reason: `The organization is not on usage-based pricing: the platform answers the units by test (/usage/units/tests) only to those (it answered 403 Forbidden, though the token reads /usage).`,
    };
  const quota = usage.value.quota ?? {};
  const included = Number(quota.cloudUnitsIncluded);
  return {
    ok: true,
    value: {
      periodStart: String(quota.monthStart ?? ''),
      periodEnd: String(quota.monthEnd ?? ''),
      ...(included > 0 ? { included } : {}),
      tests: read.value,
    },
  };
}
