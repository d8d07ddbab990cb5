/**
 * Prints the fewest platform calls one watch run can make for each of the first GROUPS account groups of the
 * sandbox's large world (see bench/watch.ts): its health check of that group, an AHC v7 with its measured checks
 * (counted as bench/measured-minimum.ts counts them: bench/health-calls.ts), and, when it runs one, its backup (as
 * bench/backup-minimum.ts counts one), by account group name (an organization copy has the same groups and data
 * under other ids). Each run reads its organization's units by test again: a health check reads them whole, whatever
 * its groups. Run apart, so the world's memory stays here.
 *
 * Usage: tsx bench/watch-minimum.ts <groups> <health|backup|both> <now, epoch ms>
 */
import { generateWorld } from '@ce/sandbox';
import { healthGroupCalls, healthOrganizationCalls, pages } from './health-calls.js';

const LABELS_PAGE = 20;
const count = Number(process.argv[2] ?? 5);
const runs = process.argv[3] ?? 'both';
const now = Number(process.argv[4] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId).slice(0, count);

const minimum = Object.fromEntries(
  groups.map((group) => {
    const of = <T extends { aid: string }>(list: T[]) => list.filter((entry) => entry.aid === group.aid);
    // The run's own first call, which proves the token before any part starts (decision 0031, issue 55).
    let calls = 1;
    // The health check: the organization's reads (usage, quotas, units by test) and the group's.
    if (runs !== 'backup')
      calls += healthOrganizationCalls(world, group.orgId, true) + healthGroupCalls(world, group.aid, now, true).calls;
    if (runs !== 'health') {
      // Agents; tests, rules, windows and dashboards listed and each read once; tags; endpoint labels by page;
      // endpoint scheduled and dynamic tests (bench/backup-minimum.ts counts the token's groups too: its bench reads
      // them, a watch run's backup does not).
      calls +=
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
