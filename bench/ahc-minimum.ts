/**
 * Prints the fewest platform calls an AHC v7 report on the sandbox's large world can make (see
 * bench/ahc.ts), computed from the world the sandbox generates for today. Run apart from the bench so the
 * world's memory is not counted in the generating process's peak.
 */
import { HEALTH_PROFILES } from '@ce/contract';
import { generateWorld } from '@ce/sandbox';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/health/health-check.generator.js';

const DAY = 86_400_000;
const PAGE_SIZE = 50; // the sandbox's page of alerts
const now = Number(process.argv[2] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));
const profile = HEALTH_PROFILES.v7;
const clearedDays = Math.max(profile.alertsActiveDays, profile.alertsCountDays);
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId);
let minimum = 1 + 2; // the token's account groups; usage and quotas for the organization
for (const group of groups) {
  const alerts = world.alerts.filter((alert) => alert.aid === group.aid);
  const started = alerts.filter((alert) => now - Date.parse(alert.startDate) <= ALERT_LOOKBACK_DAYS * DAY).length;
  const cleared = alerts.filter(
    (alert) => alert.alertState === 'clear' && alert.endDate && now - Date.parse(alert.endDate) <= clearedDays * DAY,
  ).length;
  // Users with roles, agents, tests, HTTP server and page-load settings, alert rules, dashboards; alerts paged.
  minimum += 7 + pages(started) + pages(cleared);
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
