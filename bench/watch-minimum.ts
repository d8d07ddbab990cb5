/**
 * Prints the fewest platform calls one watch run can make for each of the first GROUPS account groups of the
 * sandbox's large world (see bench/watch.ts): its health check of that group (as bench/report-minimum.ts counts an
 * AHC v7) and, when it runs one, its backup (as bench/backup-minimum.ts counts one), by account group name (an
 * organization copy has the same groups and data under other ids). Run apart, so the world's memory stays here.
 *
 * Usage: tsx bench/watch-minimum.ts <groups> <health|backup|both> <now, epoch ms>
 */
import { HEALTH_PROFILES } from '@ce/contract';
import { generateWorld } from '@ce/sandbox';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/kinds/health/generator.js';

const DAY = 86_400_000;
const ALERTS_PAGE = 50;
const LABELS_PAGE = 20;
const count = Number(process.argv[2] ?? 5);
const runs = process.argv[3] ?? 'both';
const now = Number(process.argv[4] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const pages = (items: number, size: number) => Math.max(1, Math.ceil(items / size));
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId).slice(0, count);

const minimum = Object.fromEntries(
  groups.map((group) => {
    const of = <T extends { aid: string }>(list: T[]) => list.filter((entry) => entry.aid === group.aid);
    // The run's own first call, which proves the token before any part starts (decision 0031, issue 55).
    let calls = 1;
    if (runs !== 'backup') {
      const profile = HEALTH_PROFILES.v7;
      const clearedDays = Math.max(profile.alertsActiveDays, profile.alertsCountDays);
      const alerts = of(world.alerts);
      const started = alerts.filter((alert) => now - Date.parse(alert.startDate) <= ALERT_LOOKBACK_DAYS * DAY).length;
      const cleared = alerts.filter(
        (alert) =>
          alert.alertState === 'clear' && alert.endDate && now - Date.parse(alert.endDate) <= clearedDays * DAY,
      ).length;
      // The token's groups; usage and quotas; per group users, agents, tests, HTTP server and page-load settings,
      // rules, dashboards; alerts started and cleared, paged.
      calls += 1 + 2 + 7 + pages(started, ALERTS_PAGE) + pages(cleared, ALERTS_PAGE);
    }
    if (runs !== 'health') {
      // The token's groups; agents; tests, rules, windows and dashboards listed and each read once; tags; endpoint
      // labels by page; endpoint scheduled and dynamic tests.
      calls +=
        1 +
        1 +
        (1 + of(world.tests).length) +
        (1 + of(world.alertRules).length) +
        (1 + of(world.suppressionWindows).length) +
        (1 + of(world.dashboards).length) +
        1 +
        pages(of(world.endpointLabels).length, LABELS_PAGE) +
        2;
    }
    return [group.accountGroupName, calls];
  }),
);
console.log(JSON.stringify({ minimum }));
