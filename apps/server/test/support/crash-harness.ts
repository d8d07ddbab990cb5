import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, expect } from 'vitest';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { HttpClient, startServer } from '../child-server.js';

/**
 * A server killed in the middle of a run, and started again on the same data folder: the platform lives outside
 * the server (a sandbox of its own), so it remembers what the first server did and counts what was created.
 */
export function crashHarness(folder: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${folder}-`));
  const children: ChildProcess[] = [];
  const sandbox = new Sandbox({});
  const platform = Fastify({ logger: false });
  let env: Record<string, string> = {};
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  });
  const world = sandbox.platform.world;
  const started = async () => {
    const server = await startServer(dataDir, env);
    children.push(server.process);
    return server;
  };
  let running: Awaited<ReturnType<typeof started>> | null = null;
  const client = new HttpClient('');

  return {
    sandbox,
    world,
    client,
    /** The demo world's Org Admin token (Acme's). */
    token: world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '',
    /** Starts the platform and the server, and signs the TAM in. */
    async start(): Promise<HttpClient> {
      await platform.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
      const origin = await platform.listen({ host: '127.0.0.1', port: 0 });
      env = { PLATFORM_API_URL: `${origin}/sandbox/te/v7` };
      running = await started();
      client.base = running.url;
      await client.call('GET', '/api/app-info');
      const signedIn = await client.call('POST', '/api/session', {
        email: 'tam@demo.local',
        password: 'demo-password',
      });
      expect(signedIn.status).toBe(200);
      return client;
    },
    /** Slow and tightly limited, so a kill lands in the middle of a run. */
    slow(): void {
      sandbox.platform.setScenario({
        ...sandbox.platform.scenario,
        latencyMs: 300,
        rateLimitPerMinute: 8,
        windowMs: 2_000,
      });
    },
    /** Kills the server (SIGKILL) and waits for it to be gone. */
    async kill(): Promise<void> {
      const dead = running;
      if (!dead) throw new Error('start the server first');
      dead.process.kill('SIGKILL');
      await new Promise((resolve) => dead.process.once('exit', resolve));
      running = null;
    },
    /** Starts another server on the same data folder and platform; the client calls it from now on. */
    async restart(): Promise<void> {
      running = await started();
      client.base = running.url;
    },
  };
}
