/**
 * bench:bulk - a bulk tests run of 1,000 tests (20 templates x 50 account groups) through the real
 * server job against the sandbox (50 ms latency, a limit set so the run takes about a minute), and
 * beside it, in the same run, the spec's approach: one creation call per test, all at once.
 *
 * rate = calls the sandbox accepted per rate-limit window, averaged over the windows the run used;
 * limit = the calls allowed per window. The run makes 1,000 creations plus its plan (two reads per
 * group) plus one read of the token's account groups when it is submitted, and the limit is half of
 * that, so a run that never wastes budget fills two windows.
 */
import type { BulkRun } from '@ce/contract';
import { startBenchApp } from './bench-app.js';
import { configurePlatform, postAllAtOnce, windowRate } from './rate-windows.js';

const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 20);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 50);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const TESTS = TEMPLATES * GROUPS;
const PLAN_CALLS = 2 * GROUPS + 1;
const LIMIT = Number(process.env.BENCH_LIMIT ?? Math.ceil((TESTS + PLAN_CALLS) / 2));

const { origin, call, sandbox, close } = await startBenchApp('bulk');

const world = () => sandbox.platform.world;
const org = world().organizations[0];
const token = world().tokens.find(
  (candidate) => candidate.kind === 'org-admin' && candidate.orgId === org?.orgId,
)?.token;
const groups = world()
  .accountGroups.filter((group) => group.orgId === org?.orgId)
  .slice(0, GROUPS)
  .map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
const cloudAgents = world()
  .agents.filter((agent) => agent.agentType === 'cloud')
  .slice(0, 2);
const template = (index: number, run: string) => ({
  testName: `${run} bench template ${index}`,
  testType: 'http-server' as const,
  interval: 300,
  url: `https://bench-${index}.example.com`,
  agentNames: cloudAgents.map((agent) => agent.agentName),
});

const configure = () =>
  configurePlatform(sandbox.platform, { latencyMs: LATENCY_MS, limit: LIMIT, windowMs: WINDOW_MS });

// The spec's approach: one call per template and group, all at once, no limiter.
configure();
const naiveStart = performance.now();
const naiveStatuses = await postAllAtOnce(
  token ?? '',
  Array.from({ length: TESTS }, (_, index) => {
    const { testName, url, interval } = template(Math.floor(index / GROUPS), 'naive');
    return {
      url: `${origin}/sandbox/te/v7/tests/http-server?aid=${groups[index % GROUPS]?.aid}`,
      body: {
        testName,
        url,
        interval,
        alertsEnabled: true,
        description: '',
        agents: cloudAgents.map(({ agentId }) => ({ agentId })),
      },
    };
  }),
);
const naiveSeconds = (performance.now() - naiveStart) / 1000;
const naiveFailed = naiveStatuses.filter((status) => status !== 201).length;

// The toolkit: one bulk run, executed by the server's job, paced by the organization's limiter.
configure();
const runStart = performance.now();
const started = await call<BulkRun>('POST', '/api/bulk/runs', {
  kind: 'tests',
  token,
  organization: { id: org?.orgId, name: org?.name },
  accountGroups: groups,
  templates: Array.from({ length: TEMPLATES }, (_, index) => template(index, 'toolkit')),
});
if (started.status !== 202) throw new Error(`the run was refused: ${JSON.stringify(started.body)}`);
let run = started.body;
while (run.status !== 'done' && run.status !== 'failed') {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  run = (await call<BulkRun>('GET', `/api/bulk/runs/${run.id}`)).body;
}
const runSeconds = (performance.now() - runStart) / 1000;
const lost429 = run.items.filter((item) => item.status === 'failed' && /rate limit|429/i.test(item.error ?? '')).length;
const { windows, rate } = windowRate(sandbox.platform, org?.orgId);
const created = world().tests.filter((test) => test.testName.startsWith('toolkit bench template')).length;

await close();

console.log(
  `bulk-create: ${TEMPLATES} templates x ${GROUPS} groups = ${TESTS} tests, ${LATENCY_MS} ms latency, limit ${LIMIT} per ${WINDOW_MS / 1000} s window`,
);
console.log(
  `  toolkit (server job): ${created} created, ${run.totals.failed} failed, in ${runSeconds.toFixed(1)} s over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}]`,
);
console.log(
  `  naive (all at once, no limiter): ${TESTS - naiveFailed} created in ${naiveSeconds.toFixed(1)} s, ${naiveFailed} failed`,
);
console.log(`bulk: rate/limit=${(rate / LIMIT).toFixed(2)} lost429=${lost429} naive-failed=${naiveFailed}`);
