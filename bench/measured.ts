/**
 * bench:measured - the measured health check (AHC v7 with its measured checks) on the account groups of the
 * sandbox's large world holding at least 500 tests (bench/measured-minimum.ts chooses them): 7 days of results of
 * every enabled test, each rule's detail, the agents' health and the units by test, with the configuration reads.
 * The sandbox runs in a child process (its memory is not this one's), at 20 ms latency and a limit that spreads the
 * fewest calls over `BENCH_MEASURED_WINDOWS` 10-second windows; this process generates the report as a worker does.
 *
 * calls/min  = the calls the sandbox answered for the organization over the fewest pages the API allows for what the
 *              checks read (bench/measured-minimum.ts).
 * rate/limit = the calls the sandbox accepted per window over the limit, the last (partial) window left out.
 * wall/ideal = the run's time over calls / limit (the time the limit alone imposes).
 * rss-mb     = the peak resident memory of this process.
 * Last line: `measured: tests=<n> rounds=<n> calls/min=<x.xx> rate/limit=<x.xx> wall/ideal=<x.xx> rss-mb=<n>`.
 */
import type { PlatformSession } from '@ce/platform-client';
import { healthCheckGenerator } from '../apps/server/src/modules/reports/kinds/health/generator.js';
import { pacedCustomer, platformStats, startLargeSandbox } from './platform-child.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const WINDOWS = Number(process.env.BENCH_MEASURED_WINDOWS ?? 40);

/** Counts the results the generator reads (the rounds of the last line), as they stream through. */
function countingResults(session: PlatformSession): { count: () => number } {
  let results = 0;
  const stream = session.testResults.stream.bind(session.testResults);
  session.testResults.stream = async function* (...args: Parameters<typeof stream>) {
    for await (const result of stream(...args)) {
      results += 1;
      yield result;
    }
  };
  return { count: () => results };
}

const { origin, stop } = await startLargeSandbox();
try {
  const { facts, limit, admin, started, groups, orgId, session } = await pacedCustomer<{
    minimum: number;
    resultPages: number;
    tests: number;
    aids: string[];
  }>(origin, 'bench/measured-minimum.ts', [String(Date.now())], {
    latencyMs: LATENCY_MS,
    windowMs: WINDOW_MS,
    windows: WINDOWS,
  });
  const counted = countingResults(session);
  const chosen = groups.filter((group) => facts.aids.includes(group.aid));
  const report = await healthCheckGenerator('ahc-v7')({
    platform: session,
    organization: { id: orgId, name: admin.organizationName },
    accountGroups: chosen.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
    options: {},
    requestedBy: 'tam@demo.local',
    now: new Date(),
    progress: async () => undefined,
  });
  const wallMs = performance.now() - started;
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const { windows, refused, calls } = await platformStats(origin, orgId);
  const idealMs = (calls / limit) * WINDOW_MS;
  const full = windows.length > 1 ? windows.slice(0, -1) : windows;
  const rate = full.reduce((sum, window) => sum + window.count, 0) / (full.length * limit);

  console.log(
    `measured: AHC v7 with its measured checks on ${chosen.length} account groups (${facts.tests} tests, ${facts.resultPages} pages of results at the fewest); ${LATENCY_MS} ms latency, limit ${limit} per ${WINDOW_MS / 1000} s window`,
  );
  console.log(
    `  ${calls} calls (${refused} refused with 429) against a minimum of ${facts.minimum}, over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}], in ${(wallMs / 1000).toFixed(1)} s; files: ${report.artifacts.map((artifact) => `${artifact.filename} ${Math.round(artifact.content.length / 1024)} KB`).join(', ')}`,
  );
  console.log(
    `measured: tests=${facts.tests} rounds=${counted.count()} calls/min=${(calls / facts.minimum).toFixed(2)} rate/limit=${rate.toFixed(2)} wall/ideal=${(wallMs / idealMs).toFixed(2)} rss-mb=${peakMb}`,
  );
} finally {
  stop();
}
