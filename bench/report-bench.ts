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
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlatformClient } from '@ce/platform-client';
import type { ReportGenerator } from '../apps/server/src/modules/reports/report-generator.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 6);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function benchReport(options: {
  /** The last line's name: `<name>: calls/min=... wall/ideal=... rss-mb=...`. */
  name: string;
  kind: 'ahc-v7' | 'config-spreadsheet';
  label: string;
  generator: ReportGenerator;
}): Promise<void> {
  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });

  // The platform: the product in demo mode with the large sandbox, in its own process.
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bench-ahc-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL')),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRETS_DIR: `${dataDir}.keys`,
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      SANDBOX_SIZE: 'large',
      WORKERS_ENABLED: 'false',
      WEB_DIST_DIR: path.join(dataDir, 'none'),
    },
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    for (let attempt = 0; ; attempt++) {
      const ready = await fetch(`${origin}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (attempt > 600) throw new Error('the sandbox did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const computed = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/report-minimum.ts'), options.kind, String(Date.now())],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    if (computed.status !== 0) throw new Error(`the minimum could not be computed: ${computed.stderr}`);
    const world = JSON.parse(computed.stdout) as {
      minimum: number;
      groups: number;
      tests: number;
      rules: number;
      users: number;
    };
    const limit = Number(process.env.BENCH_LIMIT ?? Math.ceil(world.minimum / WINDOWS));
    const scenario = await fetch(`${origin}/sandbox/te/scenario`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: LATENCY_MS, rateLimitPerMinute: limit, windowMs: WINDOW_MS }),
    });
    if (!scenario.ok) throw new Error(`the scenario was refused: ${await scenario.text()}`);
    const tokens = (await (await fetch(`${origin}/sandbox/te/tokens`)).json()) as {
      tokens: { token: string; kind: string; organizationName: string }[];
    };
    const admin = tokens.tokens.find((candidate) => candidate.kind === 'org-admin');
    if (!admin) throw new Error('no org-admin token');

    // The worker's part, in this process.
    const platform = new PlatformClient({ baseUrl: `${origin}/sandbox/te/v7` });
    const started = performance.now();
    const groups = await platform.as({ token: admin.token }).accountGroups.list();
    const orgId = groups[0]?.orgId ?? '';
    const report = await options.generator({
      platform: platform.as({ token: admin.token, organizationId: orgId }),
      organization: { id: orgId, name: admin.organizationName },
      accountGroups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
      options: {},
      requestedBy: 'tam@demo.local',
      now: new Date(),
      progress: async () => undefined,
    });
    const wallMs = performance.now() - started;
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);

    const stats = (await (await fetch(`${origin}/sandbox/te/stats`)).json()) as {
      windows: { orgId: string; count: number }[];
      callsByStatus: Record<string, number>;
    };
    const windows = stats.windows.filter((window) => window.orgId === orgId && window.count > 0);
    const refused = stats.callsByStatus['429'] ?? 0;
    const calls = windows.reduce((sum, window) => sum + window.count, 0) + refused;
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
