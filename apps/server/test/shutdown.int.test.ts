import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import type { BulkRun } from '@ce/contract';
import { createTestApp, sandboxCustomer, signedInClient, startBulkTests } from './build-test-app.js';
import { entryArgs } from './support/server-bundle.js';
import { startEntry } from './support/started-process.js';
import { bgpTemplate } from './support/templates.js';

describe('the server process', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-shutdown-'));
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  });

  it('prints its address, answers, and exits cleanly on SIGTERM; a bad setting stops it with the name', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' };
    const { process: server, url, output } = await startEntry('server', env, { timeoutMs: 60_000 });
    expect(output()).toContain('tam@demo.local');
    // Port 0 asks the system for a free port; the banner shows the one it got.
    expect(url).not.toMatch(/:0$/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);

    const bad = spawn(process.execPath, entryArgs('server'), {
      env: { ...env, PORT: 'not-a-port' },
    });
    let badOutput = '';
    bad.stderr.on('data', (chunk: Buffer) => (badOutput += chunk.toString()));
    const badCode = await new Promise<number | null>((resolve) => bad.on('exit', (code) => resolve(code)));
    expect(badCode).toBe(2);
    expect(badOutput).toContain('PORT="not-a-port"');
  }, 90_000);
});

describe('a stopping instance', () => {
  it('has one grace in all: the time its change sets took to stop is taken from what the queue may wait', async () => {
    const graceMs = 10_000;
    const latencyMs = 3000;
    const testApp = await createTestApp('pglite', { SHUTDOWN_GRACE_MS: String(graceMs) });
    try {
      const tam = await signedInClient(testApp.app, 'tam@demo.local');
      const customer = await sandboxCustomer(testApp, tam);
      const platform = testApp.sandbox?.platform;
      if (!platform) throw new Error('the sandbox is mounted in tests');
      const templates = [bgpTemplate('Grace one'), bgpTemplate('Grace two', '198.51.100.0/24')];
      // Every platform call now takes three seconds: an item sent is still out when the instance stops.
      platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000, latencyMs });
      const started = await startBulkTests(tam, customer, customer.groups.slice(0, 1), templates);
      expect(started.statusCode, started.body).toBe(202);
      const run = started.json<BulkRun>();
      await vi.waitFor(
        async () => {
          const { rows } = await testApp.database.sql.executeSql(
            "select count(*) >= 1 as sent from change_set_items where run_id = $1 and status = 'running'",
            [run.id],
          );
          expect(rows[0]).toEqual({ sent: true });
        },
        { timeout: 30_000, interval: 20 },
      );
      const stop = vi.spyOn(testApp.queue, 'stop');
      const closing = performance.now();
      await testApp.app.close();
      const drained = performance.now() - closing;
      expect(stop).toHaveBeenCalledTimes(1);
      const given = stop.mock.calls[0]?.[0] ?? graceMs;
      // The change set stopped after its item came back (about the call's three seconds) ...
      expect(drained).toBeGreaterThanOrEqual(latencyMs - 1000);
      // ... and the queue had the rest of the grace, not all of it again.
      expect(given).toBeLessThanOrEqual(graceMs - (latencyMs - 1000));
      expect(given).toBeGreaterThanOrEqual(1000);
    } finally {
      await testApp.close();
    }
  }, 90_000);
});
