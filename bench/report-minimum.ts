/**
 * Prints the fewest platform calls a report can make on the sandbox's large world (see bench/ahc.ts and
 * bench/config.ts), computed from the world the sandbox generates for today. Run apart from the bench so
 * the world's memory is not counted in the generating process's peak.
 *
 * Usage: tsx bench/report-minimum.ts <ahc-v7|config-spreadsheet> <now, epoch ms>
 */
import { HEALTH_PROFILES } from '@ce/contract';
import { generateWorld } from '@ce/sandbox';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/kinds/health/generator.js';

const DAY = 86_400_000;
const ALERTS_PAGE = 50; // the sandbox's pages: alerts
const ENDPOINT_AGENTS_PAGE = 20; // and endpoint agents
const kind = process.argv[2];
const now = Number(process.argv[3] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const pages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId);

// One read of the token's account groups; usage and quotas once for the organization.
let minimum = 1 + 2;
for (const group of groups) {
  if (kind === 'ahc-v7') {
    const profile = HEALTH_PROFILES.v7;
    const clearedDays = Math.max(profile.alertsActiveDays, profile.alertsCountDays);
    const alerts = world.alerts.filter((alert) => alert.aid === group.aid);
    const started = alerts.filter((alert) => now - Date.parse(alert.startDate) <= ALERT_LOOKBACK_DAYS * DAY).length;
    const cleared = alerts.filter(
      (alert) => alert.alertState === 'clear' && alert.endDate && now - Date.parse(alert.endDate) <= clearedDays * DAY,
    ).length;
    // Users with roles, agents, tests, HTTP server and page-load settings, alert rules, dashboards; alerts paged.
    minimum += 7 + pages(started, ALERTS_PAGE) + pages(cleared, ALERTS_PAGE);
  } else if (kind === 'config-spreadsheet') {
    const types = new Set(world.tests.filter((test) => test.aid === group.aid).map((test) => test.type)).size;
    const rules = world.alertRules.filter((rule) => rule.aid === group.aid).length;
    const windows = world.suppressionWindows.filter((window) => window.aid === group.aid).length;
    const endpointAgents = world.endpointAgents.filter((agent) => agent.aid === group.aid).length;
    // Tests and each type's list; agents; rules and each rule's detail (the list names no tests or
    // notifications); tags; windows and each window's tests; dashboards; users; endpoint agents (paged) and tests.
    minimum += 1 + types + 1 + 1 + rules + 1 + 1 + windows + 1 + 1 + pages(endpointAgents, ENDPOINT_AGENTS_PAGE) + 1;
  } else throw new Error(`no minimum for ${kind}`);
}
console.log(
  JSON.stringify({
    minimum,
    groups: groups.length,
    tests: world.tests.length,
    rules: world.alertRules.length,
    users: world.users.length,
  }),
);
