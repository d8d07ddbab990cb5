/**
 * What the benches that need the large sandbox apart from the measured process share: the product in
 * demo mode with the large world in a child process (its memory is not the bench's), playing the platform.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlatformClient } from '@ce/platform-client';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Starts the large sandbox in a child process; answers where it listens and how to stop it. */
export async function startLargeSandbox(): Promise<{ origin: string; stop: () => void }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bench-platform-'));
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
  } catch (error) {
    stop();
    throw error;
  }
  return { origin, stop };
}

/** Sets the platform's latency and limit for the bench. */
export async function setPlatformScenario(
  origin: string,
  scenario: { latencyMs: number; limit: number; windowMs: number },
) {
  const response = await fetch(`${origin}/sandbox/te/scenario`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      latencyMs: scenario.latencyMs,
      rateLimitPerMinute: scenario.limit,
      windowMs: scenario.windowMs,
    }),
  });
  if (!response.ok) throw new Error(`the scenario was refused: ${await response.text()}`);
}

/** The calls the sandbox answered for an organization: accepted per window, and refused with 429. */
export async function platformStats(origin: string, orgId: string) {
  const stats = (await (await fetch(`${origin}/sandbox/te/stats`)).json()) as {
    windows: { orgId: string; count: number }[];
    callsByStatus: Record<string, number>;
  };
  const windows = stats.windows.filter((window) => window.orgId === orgId && window.count > 0);
  const refused = stats.callsByStatus['429'] ?? 0;
  return { windows, refused, calls: windows.reduce((sum, window) => sum + window.count, 0) + refused };
}

/** The sandbox's Org Admin token. */
export async function orgAdmin(origin: string) {
  const tokens = (await (await fetch(`${origin}/sandbox/te/tokens`)).json()) as {
    tokens: { token: string; kind: string; organizationName: string }[];
  };
  const admin = tokens.tokens.find((candidate) => candidate.kind === 'org-admin');
  if (!admin) throw new Error('no org-admin token');
  return admin;
}

/** How a bench paces the child's platform: its latency, its windows, and how many windows the fewest calls span. */
export interface Pacing {
  latencyMs: number;
  windowMs: number;
  windows: number;
}

/**
 * Sets up a paced run against the child's platform: the fewest calls the run can make, computed by `script`
 * (run with `args`; it prints JSON with `minimum` and what else the bench reports), a limit that spreads them
 * over `pacing.windows` windows (BENCH_LIMIT overrides), and the Org Admin's session on its organization. The
 * run's clock (`started`) starts before the token's account groups are read, as a job's does.
 */
export async function pacedCustomer<Facts extends { minimum: number }>(
  origin: string,
  script: string,
  args: string[],
  pacing: Pacing,
) {
  const computed = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, script), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  if (computed.status !== 0) throw new Error(`the minimum could not be computed: ${computed.stderr}`);
  const facts = JSON.parse(computed.stdout) as Facts;
  const limit = Number(process.env.BENCH_LIMIT ?? Math.ceil(facts.minimum / pacing.windows));
  await setPlatformScenario(origin, { latencyMs: pacing.latencyMs, limit, windowMs: pacing.windowMs });
  const admin = await orgAdmin(origin);
  const platform = new PlatformClient({ baseUrl: `${origin}/sandbox/te/v7` });
  const started = performance.now();
  const groups = await platform.as({ token: admin.token }).accountGroups.list();
  const orgId = groups[0]?.orgId ?? '';
  return {
    facts,
    limit,
    admin,
    started,
    groups,
    orgId,
    session: platform.as({ token: admin.token, organizationId: orgId }),
  };
}
