/**
 * What bench:ahc and bench:config share: a report generated on the sandbox's large world (100 account
 * groups, 10,000 tests, 3,000 rules, 1,000 users). The product runs in a child process on embedded
 * defaults with the large sandbox, which plays the platform (20 ms latency, a limit set so the run spans
 * six 10-second windows); this process generates the report as a worker does, with the real platform
 * client, generator and renderers.
 *
 * calls/min = the calls the sandbox answered for the organization over the minimum the report's reads
 *   allow (bench/report-minimum.ts: each list once per account group or once for the organization, plus
 *   one call per extra page).
 * wall/ideal = the run's time over calls / limit (the time the limit alone imposes).
 * rss-mb = the peak resident memory of this process, which generated the report.
 */
import type { ReportGenerator } from '../apps/server/src/modules/reports/report-generator.js';
import { pacedCustomer, platformStats, startLargeSandbox } from './platform-child.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 6);

export async function benchReport(options: {
  /** The last line's name: `<name>: calls/min=... wall/ideal=... rss-mb=...`. */
  name: string;
  kind: 'ahc-v7' | 'config-spreadsheet';
  label: string;
  generator: ReportGenerator;
}): Promise<void> {
  const { origin, stop } = await startLargeSandbox();
  try {
    const {
      facts: world,
      limit,
      admin,
      started,
      groups,
      orgId,
      session,
    } = await pacedCustomer<{
      minimum: number;
      groups: number;
      tests: number;
      rules: number;
      users: number;
    }>(origin, 'bench/report-minimum.ts', [options.kind, String(Date.now())], {
      latencyMs: LATENCY_MS,
      windowMs: WINDOW_MS,
      windows: WINDOWS,
    });
    const report = await options.generator({
      platform: session,
      organization: { id: orgId, name: admin.organizationName },
      accountGroups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
      options: {},
      requestedBy: 'tam@demo.local',
      now: new Date(),
      progress: async () => undefined,
    });
    const wallMs = performance.now() - started;
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);

    const { windows, refused, calls } = await platformStats(origin, orgId);
    const idealMs = (calls / limit) * WINDOW_MS;

    console.log(
      `${options.name}: ${options.label} on ${world.groups} account groups, ${world.tests} tests, ${world.rules} rules, ${world.users} users; ${LATENCY_MS} ms latency, limit ${limit} per ${WINDOW_MS / 1000} s window`,
    );
    console.log(
      `  ${calls} calls (${refused} refused with 429) against a minimum of ${world.minimum}, over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}], in ${(wallMs / 1000).toFixed(1)} s; files: ${report.artifacts.map((artifact) => `${artifact.filename} ${Math.round(artifact.content.length / 1024)} KB`).join(', ')}`,
    );
    console.log(
      `${options.name}: calls/min=${(calls / world.minimum).toFixed(2)} wall/ideal=${(wallMs / idealMs).toFixed(2)} rss-mb=${peakMb}`,
    );
  } finally {
    stop();
  }
}
