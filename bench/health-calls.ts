/**
 * The fewest platform calls of the health check's reads (apps/server/src/modules/reports/kinds/health/read.ts and
 * read-measured.ts), counted from the world the sandbox generates, by the sandbox's pages: what the benches'
 * minimums share (bench/report-minimum.ts, bench/measured-minimum.ts, bench/watch-minimum.ts).
 *
 * The pages: alerts 50 a page; units by test 100 a page; the activity log 100 a page; endpoint agents 20 a page; a
 * week of a test's results is its rounds over the window, whole rounds to a page of at most `RESULTS_PER_PAGE`
 * results (one page when there is no round).
 */
import { HEALTH_PROFILES } from '@ce/contract';
import type { World } from '@ce/sandbox';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/kinds/health/generator.js';
import { MEASURED_LIMITS } from '../apps/server/src/modules/reports/kinds/health/checks/measured-limits.js';
import { isChange } from '../apps/server/src/modules/reports/kinds/health/read-changes.js';
import { roundSpan } from '../packages/sandbox/src/platform/simulation/rounds.js';
import { RESULTS_PER_PAGE, RESULT_KINDS } from '../packages/sandbox/src/platform/routes/test-results.js';

const DAY = 86_400_000;
const ALERTS_PAGE = 50;
const UNITS_PAGE = 100;
const AUDIT_PAGE = 100;
const ENDPOINT_AGENTS_PAGE = 20;
const MEASURED_TYPES = new Set(Object.values(RESULT_KINDS));

export const pages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));

export interface GroupCalls {
  calls: number;
  /** Of them, the pages of results (measured only), and the results they hold. */
  resultPages: number;
  results: number;
}

/** The pages of a week of results of each enabled test of the group the measured checks read. */
function resultPagesOf(world: World, aid: string, now: number): { pages: number; results: number } {
  const agents = new Set(world.agents.map((agent) => agent.agentId));
  const from = now - MEASURED_LIMITS.resultDays * DAY;
  let count = 0;
  let results = 0;
  for (const test of world.tests) {
    if (test.aid !== aid || !test.enabled || !MEASURED_TYPES.has(test.type)) continue;
    const perRound = Math.max(1, test.agentIds.filter((agentId) => agents.has(agentId)).length);
    const span = roundSpan(test, from, now, now);
    const rounds = span ? (span[1] - span[0]) / (test.interval * 1000) + 1 : 0;
    count += pages(rounds, Math.max(1, Math.floor(RESULTS_PER_PAGE / perRound)));
    results += rounds * perRound;
  }
  return { pages: count, results };
}

/** Who changed what in the week: the activity log, paged, and the history of each existing test its changes name. */
function changesCallsOf(world: World, aid: string, now: number): number {
  const from = now - MEASURED_LIMITS.resultDays * DAY;
  const events = world.auditEvents.filter(
    (event) => event.aid === aid && Date.parse(event.date) >= from && Date.parse(event.date) <= now,
  );
  const named = new Set(
    events
      .filter(isChange)
      .flatMap((event) => (event.resources ?? []).flatMap((r) => (r.type === 'test' ? [r.name] : []))),
  );
  const histories = new Set(
    world.tests.filter((test) => test.aid === aid && named.has(test.testName)).map((test) => test.testId),
  ).size;
  return pages(events.length, AUDIT_PAGE) + histories;
}

/**
 * One account group's reads: users with roles, agents, tests, HTTP server and page-load settings, alert rules,
 * dashboards; alerts started and cleared, paged. Measured (AHC v7): each rule's detail too; the agents' notification
 * rules and the agent-offline rule's detail (the agents it is on) where the group has one; who changed what; the
 * endpoint agents' versions, paged; a week of results of every enabled test (the agents come with their tests in the
 * same one read).
 */
export function healthGroupCalls(world: World, aid: string, now: number, measured: boolean): GroupCalls {
  const profile = HEALTH_PROFILES.v7;
  const clearedDays = Math.max(profile.alertsActiveDays, profile.alertsCountDays);
  const alerts = world.alerts.filter((alert) => alert.aid === aid);
  const started = alerts.filter((alert) => now - Date.parse(alert.startDate) <= ALERT_LOOKBACK_DAYS * DAY).length;
  const cleared = alerts.filter(
    (alert) => alert.alertState === 'clear' && alert.endDate && now - Date.parse(alert.endDate) <= clearedDays * DAY,
  ).length;
  const calls = 7 + pages(started, ALERTS_PAGE) + pages(cleared, ALERTS_PAGE);
  if (!measured) return { calls, resultPages: 0, results: 0 };
  const group = world.accountGroups.find((candidate) => candidate.aid === aid);
  const rules = world.alertRules.filter((rule) => rule.aid === aid).length;
  const agentRules = 1 + (group?.noAgentOfflineRule ? 0 : 1);
  const endpoints = pages(world.endpointAgents.filter((agent) => agent.aid === aid).length, ENDPOINT_AGENTS_PAGE);
  const results = resultPagesOf(world, aid, now);
  return {
    calls: calls + rules + agentRules + changesCallsOf(world, aid, now) + endpoints + results.pages,
    resultPages: results.pages,
    results: results.results,
  };
}

/**
 * The organization's reads, once a report: usage and quotas; measured, the units by test of the whole organization,
 * paged (one call the platform refuses off usage-based pricing). The token's account groups are not the report's:
 * whoever starts it reads them (a bench before its clock starts, a watch run to prove the token).
 */
export function healthOrganizationCalls(world: World, orgId: string, measured: boolean): number {
  if (!measured) return 2;
  const org = world.organizations.find((candidate) => candidate.orgId === orgId);
  const groups = new Set(world.accountGroups.filter((group) => group.orgId === orgId).map((group) => group.aid));
  const tests = world.tests.filter((test) => groups.has(test.aid)).length;
  return 2 + (org?.billing?.usagePricing ? pages(tests, UNITS_PAGE) : 1);
}
