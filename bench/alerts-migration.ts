/**
 * bench:alerts-migration - 200 alert rules of one account group of the sandbox's large world copied into
 * 10 other groups (2,000 rule-and-target items) by the real server: the request, the change-set job's plan
 * (each list once per group, each source rule's detail once, the detail of each target rule a migrated rule
 * meets by name) and its writes (a creation, or an update where a different rule of the name exists), paced
 * by the organization's limiter. The sandbox answers with 20 ms latency and a limit set so the run spans
 * six 10-second windows.
 *
 * calls/min = the calls the sandbox answered for the organization (429s included) over the minimum the plan
 *   needs (its reads as above, one read of the token's account groups when the migration is submitted, and
 *   one call per write).
 * rate/limit = calls accepted per window, averaged over the windows the run used, over the limit.
 * lost = items neither written nor found identical, or a target without its rule at the platform;
 * duplicated = rules of a migrated name in a target beyond one.
 * Last line: `alerts-migration: rules=2000 calls/min=<m> rate/limit=<r> lost=<n> duplicated=<n>`.
 */
import type { MigrationRun } from '@ce/contract';
import { startBenchApp } from './bench-app.js';
import { windowRate } from './rate-windows.js';

const RULES = Number(process.env.BENCH_RULES ?? 200);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 10);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 6);

const { call, sandbox, close } = await startBenchApp('migration');

const platform = sandbox.platform;
platform.reset();
const world = platform.world;
const org = world.organizations[0];
if (!org) throw new Error('the large world has an organization');
const token = world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === org.orgId)?.token;
const groups = world.accountGroups.filter((group) => group.orgId === org.orgId);
const [source, ...others] = groups;
if (!source || !token) throw new Error('the large world has groups and a token');
const targets = others.slice(0, TARGETS);

// The source holds RULES rules: its own, and new ones on its tests up to the number.
const sourceTests = world.tests.filter((test) => test.aid === source.aid);
const own = world.alertRules.filter((rule) => rule.aid === source.aid);
let nextId = 90_000_000;
for (let index = own.length; index < RULES; index++) {
  const tests = sourceTests.slice(index % sourceTests.length, (index % sourceTests.length) + 2);
  const rule = {
    ruleId: String(nextId++),
    aid: source.aid,
    ruleName: `Bench migration rule ${String(index + 1).padStart(3, '0')}`,
    expression: `((responseTime >= ${200 + index} ms))`,
    notifyOnClear: index % 2 === 0,
    isDefault: false,
    alertType: 'http-server',
    alertGroupType: 'cloud-enterprise' as const,
    minimumSources: 1,
    roundsViolatingMode: 'exact' as const,
    roundsViolatingOutOf: 3,
    roundsViolatingRequired: 2,
    severity: 'major' as const,
    description: '',
    testIds: tests.map((test) => test.testId),
    notificationEmails: [`noc@${org.slug}.example.com`],
  };
  world.alertRules.push(rule);
  for (const test of tests) test.alertRuleIds.push(rule.ruleId);
}
const rules = world.alertRules.filter((rule) => rule.aid === source.aid).slice(0, RULES);
const names = new Set(rules.map((rule) => rule.ruleName));
const beforeByTarget = new Map(
  targets.map((target) => [target.aid, world.alertRules.filter((rule) => rule.aid === target.aid)]),
);
const metByName = [...beforeByTarget.values()].reduce(
  (sum, existing) => sum + existing.filter((rule) => names.has(rule.ruleName)).length,
  0,
);
// The plan's reads: the token's groups once; the source's rules and tests, and each rule's detail; per
// target its rules, tests and webhooks, and the detail of each rule a migrated rule meets by name.
const reads = 1 + 2 + rules.length + 3 * targets.length + metByName;
const writesAtMost = rules.length * targets.length;
const limit = Number(process.env.BENCH_LIMIT ?? Math.ceil((reads + writesAtMost) / WINDOWS));
platform.setScenario({ ...platform.scenario, latencyMs: LATENCY_MS, rateLimitPerMinute: limit, windowMs: WINDOW_MS });

const started = performance.now();
const submitted = await call<MigrationRun>('POST', '/api/alerts-migration/runs', {
  token,
  organization: { id: org.orgId, name: org.name },
  aid: source.aid,
  ruleIds: rules.map((rule) => rule.ruleId),
  targets: targets.map((target) => ({ aid: target.aid })),
  options: { mode: 'copy', onConflict: 'update', whenNoTestsLeft: 'keep', keepDefault: false, includeWindows: false },
});
if (submitted.status !== 202) throw new Error(`the migration was refused: ${JSON.stringify(submitted.body)}`);
let run = submitted.body;
while (run.status !== 'done' && run.status !== 'failed') {
  await new Promise((resolve) => setTimeout(resolve, 500));
  run = (await call<MigrationRun>('GET', `/api/alerts-migration/runs/${run.id}`)).body;
}
const seconds = (performance.now() - started) / 1000;

const writes = run.items.filter((item) => item.action === 'create-rule' || item.action === 'update-rule').length;
const minimum = reads + writes;
const { windows, rate } = windowRate(platform, org.orgId);
const refused = platform.calls.filter((entry) => entry.orgId === org.orgId && entry.status === 429).length;
const calls = windows.reduce((sum, window) => sum + window.count, 0) + refused;
const ruleItems = run.items.filter((item) => item.action.endsWith('-rule'));
const unwritten = ruleItems.filter(
  (item) => item.status !== 'done' && !(item.status === 'skipped' && item.note === 'Identical'),
);
let missing = 0;
let duplicated = 0;
for (const target of targets)
  for (const name of names) {
    const count = world.alertRules.filter((rule) => rule.aid === target.aid && rule.ruleName === name).length;
    if (count === 0) missing += 1;
    duplicated += Math.max(0, count - 1);
  }

await close();

console.log(
  `alerts-migration: ${rules.length} rules of ${source.accountGroupName} into ${targets.length} groups of the large world, ${LATENCY_MS} ms latency, limit ${limit} per ${WINDOW_MS / 1000} s window`,
);
console.log(
  `  ${run.status}: ${writes} writes (${run.totals.done} done, ${run.totals.skipped} identical, ${run.totals.failed} failed) in ${seconds.toFixed(1)} s; ${calls} calls (${refused} refused with 429) against a minimum of ${minimum} (${reads} reads), over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}]`,
);
console.log(
  `alerts-migration: rules=${ruleItems.length} calls/min=${(calls / minimum).toFixed(2)} rate/limit=${(rate / limit).toFixed(2)} lost=${unwritten.length + missing} duplicated=${duplicated}`,
);
