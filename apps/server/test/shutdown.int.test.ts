import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryArgs } from './support/server-bundle.js';

describe('the server process', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-shutdown-'));
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  });

  it('prints its address, answers, and exits cleanly on SIGTERM; a bad setting stops it with the name', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' };
    const server = spawn(process.execPath, entryArgs('server'), { env });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 60_000);
      server.stdout.on('data', () => {
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    expect(output).toContain('tam@demo.local');
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
