/**
 * Prints the fewest platform calls the measured health check (AHC v7 with its measured checks) can make on the
 * account groups of the sandbox's large world that bench:measured reads: the first organization's groups, in
 * order, until they hold at least `MIN_TESTS` tests. Run apart from the bench so the world's memory is not counted
 * in the generating process's peak. The calls are counted as bench/health-calls.ts says (the sandbox's pages).
 *
 * Usage: tsx bench/measured-minimum.ts <now, epoch ms>
 */
import { generateWorld } from '@ce/sandbox';
import { healthGroupCalls, healthOrganizationCalls } from './health-calls.js';

export const MIN_TESTS = Number(process.env.BENCH_MEASURED_TESTS ?? 500);
const now = Number(process.argv[2] ?? Date.now());
const world = generateWorld({ seed: process.env.SANDBOX_SEED ?? 'ce-toolkit', size: 'large' });
const org = world.organizations[0];
const orgGroups = world.accountGroups.filter((group) => group.orgId === org?.orgId);
const chosen: typeof orgGroups = [];
let tests = 0;
for (const group of orgGroups) {
  if (tests >= MIN_TESTS) break;
  chosen.push(group);
  tests += world.tests.filter((test) => test.aid === group.aid).length;
}

// The bench's read of the token's account groups (as a job's first call), then the report's.
let minimum = 1 + healthOrganizationCalls(world, org?.orgId ?? '', true);
let resultPages = 0;
let results = 0;
for (const group of chosen) {
  const calls = healthGroupCalls(world, group.aid, now, true);
  minimum += calls.calls;
  resultPages += calls.resultPages;
  results += calls.results;
}
console.log(
  JSON.stringify({
    minimum,
    resultPages,
    results,
    tests,
    aids: chosen.map((group) => group.aid),
  }),
);
