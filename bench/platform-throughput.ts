/**
 * bench:platform - 1,000 create-test calls through the platform client against the sandbox (50 ms
 * latency, a limit set so the run takes about a minute), and beside it, in the same run, the same
 * calls sent all at once without a limiter.
 *
 * rate = calls the sandbox accepted per rate-limit window, averaged over the windows the run used;
 * limit = the calls allowed per window. rate/limit near 1 means the client used the whole budget of
 * every window it touched and lost no time to 429s; a client that backs off too long spreads the same
 * calls over more windows and scores lower.
 */
import Fastify from 'fastify';
import { PlatformClient, PlatformError, type PlatformTestType, type TestCreateBody } from '@ce/platform-client';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { configurePlatform, postAllAtOnce, windowRate } from './rate-windows.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
/** Two windows' worth of calls: the second window opens a minute after the first. */
const LIMIT = Number(process.env.BENCH_LIMIT ?? Math.ceil(CALLS / 2));

const sandbox = new Sandbox({ rateLimitPerMinute: LIMIT });
const app = Fastify({ logger: false });
await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
const origin = await app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `${origin}/sandbox/te/v7`;

const world = sandbox.platform.world;
const org = world.organizations[0];
const token =
  world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === org?.orgId)?.token ?? '';
const groups = world.accountGroups.filter((group) => group.orgId === org?.orgId);
const cloudAgents = world.agents.filter((agent) => agent.agentType === 'cloud').slice(0, 2);

function call(index: number, run: string): { type: PlatformTestType; aid: string; body: TestCreateBody } {
  const group = groups[index % groups.length];
  return {
    type: 'http-server',
    aid: group?.aid ?? '',
    body: {
      testName: `${run} bench test ${index}`,
      interval: 300,
      alertsEnabled: true,
      description: '',
      agents: cloudAgents.map((agent) => ({ agentId: agent.agentId })),
      url: `https://bench-${index}.example.com`,
    },
  };
}

const configure = () =>
  configurePlatform(sandbox.platform, { latencyMs: LATENCY_MS, limit: LIMIT, windowMs: WINDOW_MS });

// The spec's approach: every call at once, no limiter.
configure();
const naiveStart = performance.now();
const naiveStatuses = await postAllAtOnce(
  token,
  Array.from({ length: CALLS }, (_, index) => {
    const { type, aid, body } = call(index, 'naive');
    return { url: `${baseUrl}/tests/${type}?aid=${aid}`, body };
  }),
);
const naiveSeconds = (performance.now() - naiveStart) / 1000;
const naiveFailed = naiveStatuses.filter((status) => status !== 201).length;
const naive429 = naiveStatuses.filter((status) => status === 429).length;

// The toolkit's client: the same calls, all issued at once, paced by the organization's limiter.
configure();
const client = new PlatformClient({ baseUrl, timeoutMs: 30_000 }).as({ token, organizationId: org?.orgId });
const limitedStart = performance.now();
const outcomes = await Promise.all(
  Array.from({ length: CALLS }, async (_, index) => {
    const { type, aid, body } = call(index, 'limited');
    try {
      await client.tests.create(type, body, aid);
      return 'ok' as const;
    } catch (error) {
      return error instanceof PlatformError ? error.status : -2;
    }
  }),
);
const limitedSeconds = (performance.now() - limitedStart) / 1000;
const failures = outcomes.filter((outcome) => outcome !== 'ok');
const lost429 = failures.filter((outcome) => outcome === 429).length;
const { windows, rate } = windowRate(sandbox.platform, org?.orgId);
const created = sandbox.platform.world.tests.filter((test) => test.testName.startsWith('limited bench test')).length;

await app.close();

console.log(
  `platform-throughput: ${CALLS} create-test calls, ${LATENCY_MS} ms latency, limit ${LIMIT} per ${WINDOW_MS / 1000} s window`,
);
console.log(
  `  limited (client): ${created} created in ${limitedSeconds.toFixed(1)} s over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}], max ${Math.max(...windows.map((window) => window.count))} in a window, ${failures.length} failed`,
);
console.log(
  `  naive (all at once, no limiter): ${CALLS - naiveFailed} created in ${naiveSeconds.toFixed(1)} s, ${naiveFailed} failed (${naive429} with 429)`,
);
console.log(`platform: rate/limit=${(rate / LIMIT).toFixed(2)} lost429=${lost429} naive-failed=${naiveFailed}`);
