/**
 * Prints the largest account group of the sandbox's large world and the fewest platform calls its backup
 * can make (see bench/backup.ts), computed from the world the sandbox generates. Run apart from the bench so
 * the world's memory is not counted in the backing-up process's peak.
 */
import { generateWorld } from '@ce/sandbox';

const LABELS_PAGE = 20; // the sandbox's pages of endpoint labels
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const sizes = world.accountGroups
  .filter((group) => group.orgId === org?.orgId)
  .map((group) => {
    const count = <T extends { aid: string }>(list: T[]) => list.filter((entry) => entry.aid === group.aid).length;
    return {
      aid: group.aid,
      name: group.accountGroupName,
      tests: count(world.tests),
      rules: count(world.alertRules),
      windows: count(world.suppressionWindows),
      dashboards: count(world.dashboards),
      labels: count(world.endpointLabels),
    };
  })
  .sort((a, b) => b.tests + b.rules + b.windows + b.dashboards - (a.tests + a.rules + a.windows + a.dashboards));
const largest = sizes[0];
if (!largest) throw new Error('the large world has groups');
// The token's groups once; the group's agents once (to name those widgets filter on); tests, rules, windows and dashboards listed once and each read in detail once;
// tags once; endpoint labels by page; endpoint scheduled and dynamic tests once each.
const minimum =
  1 +
  1 +
  (1 + largest.tests) +
  (1 + largest.rules) +
  (1 + largest.windows) +
  (1 + largest.dashboards) +
  1 +
  Math.max(1, Math.ceil(largest.labels / LABELS_PAGE)) +
  2;
console.log(JSON.stringify({ ...largest, minimum }));
