/**
 * Prints the fewest platform calls the measured health check (AHC v7 with its measured checks) can make on the
 * account groups of the sandbox's large world that bench:measured reads: the first organization's groups, in
 * order, until they hold at least `MIN_TESTS` tests. Run apart from the bench so the world's memory is not counted
 * in the generating process's peak.
 *
 * The fewest pages the API allows: a week of a test's results is its rounds over the window, whole rounds to a page
 * of at most 1,000 results (the sandbox's page; one page when there is no round); alerts 50 a page; units by test
 * 100 a page; the activity log 100 a page; endpoint agents 20 a page.
 *
 * Usage: tsx bench/measured-minimum.ts <now, epoch ms>
 */
import { HEALTH_PROFILES } from '@ce/contract';
import { generateWorld } from '@ce/sandbox';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/kinds/health/generator.js';
import { MEASURED_LIMITS } from '../apps/server/src/modules/reports/kinds/health/checks/measured-limits.js';
import { isChange } from '../apps/server/src/modules/reports/kinds/health/read-changes.js';
import { roundSpan } from '../packages/sandbox/src/platform/simulation/rounds.js';
import { RESULTS_PER_PAGE, RESULT_KINDS } from '../packages/sandbox/src/platform/routes/test-results.js';

export const MIN_TESTS = Number(process.env.BENCH_MEASURED_TESTS ?? 500);
const DAY = 86_400_000;
const ALERTS_PAGE = 50;
const UNITS_PAGE = 100;
const AUDIT_PAGE = 100;
const ENDPOINT_AGENTS_PAGE = 20;
const now = Number(process.argv[2] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const pages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));
const orgGroups = world.accountGroups.filter((group) => group.orgId === org?.orgId);
const chosen: typeof orgGroups = [];
let tests = 0;
for (const group of orgGroups) {
  if (tests >= MIN_TESTS) break;
  chosen.push(group);
  tests += world.tests.filter((test) => test.aid === group.aid).length;
}

const measuredTypes = new Set(Object.values(RESULT_KINDS));
const agents = new Set(world.agents.map((agent) => agent.agentId));
const from = now - MEASURED_LIMITS.resultDays * DAY;
// One read of the token's account groups; usage, quotas and the units by test (paged) once for the organization.
const orgTests = world.tests.filter((test) => orgGroups.some((group) => group.aid === test.aid)).length;
let minimum = 1 + 2 + pages(orgTests, UNITS_PAGE);
let resultPages = 0;
let results = 0;
for (const group of chosen) {
  const profile = HEALTH_PROFILES.v7;
  const clearedDays = Math.max(profile.alertsActiveDays, profile.alertsCountDays);
  const alerts = world.alerts.filter((alert) => alert.aid === group.aid);
  const started = alerts.filter((alert) => now - Date.parse(alert.startDate) <= ALERT_LOOKBACK_DAYS * DAY).length;
  const cleared = alerts.filter(
    (alert) => alert.alertState === 'clear' && alert.endDate && now - Date.parse(alert.endDate) <= clearedDays * DAY,
  ).length;
  const rules = world.alertRules.filter((rule) => rule.aid === group.aid).length;
  // Users with roles, agents (with their tests), tests, HTTP server and page-load settings, alert rules and each
  // rule's detail, dashboards, agent notification rules; alerts paged.
  minimum += 8 + rules + pages(started, ALERTS_PAGE) + pages(cleared, ALERTS_PAGE);
  // The agent-offline rule's detail (the agents it is on), where the group has one.
  if (!group.noAgentOfflineRule) minimum += 1;
  // Who changed what: the week's activity log, paged, and the history of each existing test its changes name.
  const events = world.auditEvents.filter(
    (event) => event.aid === group.aid && Date.parse(event.date) >= from && Date.parse(event.date) <= now,
  );
  minimum += pages(events.length, AUDIT_PAGE);
  const named = new Set(
    events
      .filter(isChange)
      .flatMap((event) => (event.resources ?? []).flatMap((r) => (r.type === 'test' ? [r.name] : []))),
  );
  minimum += new Set(
    world.tests.filter((test) => test.aid === group.aid && named.has(test.testName)).map((test) => test.testId),
  ).size;
  // The endpoint agents' versions, paged.
  minimum += pages(world.endpointAgents.filter((agent) => agent.aid === group.aid).length, ENDPOINT_AGENTS_PAGE);
  for (const test of world.tests.filter((candidate) => candidate.aid === group.aid)) {
    if (!test.enabled || !measuredTypes.has(test.type)) continue;
    const perRound = Math.max(1, test.agentIds.filter((agentId) => agents.has(agentId)).length);
    const span = roundSpan(test, from, now, now);
    const rounds = span ? (span[1] - span[0]) / (test.interval * 1000) + 1 : 0;
    resultPages += pages(rounds, Math.max(1, Math.floor(RESULTS_PER_PAGE / perRound)));
    results += rounds * perRound;
  }
}
minimum += resultPages;
console.log(
  JSON.stringify({
    minimum,
    resultPages,
    results,
    tests,
    aids: chosen.map((group) => group.aid),
  }),
);
