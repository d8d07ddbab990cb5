/**
 * Prints the fewest platform calls a report can make on the sandbox's large world (see bench/ahc.ts and
 * bench/config.ts), computed from the world the sandbox generates for today. Run apart from the bench so
 * the world's memory is not counted in the generating process's peak.
 *
 * Usage: tsx bench/report-minimum.ts <ahc-v7|config-spreadsheet> <now, epoch ms>
 */
import { generateWorld } from '@ce/sandbox';
import { healthGroupCalls, healthOrganizationCalls, pages } from './health-calls.js';

const ENDPOINT_AGENTS_PAGE = 20; // the sandbox's pages of endpoint agents
const kind = process.argv[2];
const now = Number(process.argv[3] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId);

// One read of the token's account groups (the bench's, as a job's first call); usage and quotas once for the
// organization (bench:ahc leaves the measured reads out).
let minimum = 1 + healthOrganizationCalls(world, org?.orgId ?? '', false);
for (const group of groups) {
  if (kind === 'ahc-v7') minimum += healthGroupCalls(world, group.aid, now, false).calls;
  else if (kind === 'config-spreadsheet') {
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
