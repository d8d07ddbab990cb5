import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobsThread, runsJobsOnThread } from './jobs-thread.js';

/**
 * Stand-ins for the jobs thread, speaking its protocol: ready once started, counts when asked, gone when told
 * to stop. With `exitAfterMs`, one that stops on its own that long after it started.
 */
const standIn = (exitAfterMs: number | null) => `
import { parentPort } from 'node:worker_threads';
let woken = 0;
parentPort.on('message', (message) => {
  if (message.type === 'wake') woken++;
  else if (message.type === 'metrics')
    parentPort.postMessage({ type: 'metrics', id: message.id, metrics: [{ name: 'jobs_woken', help: 'h', type: 'counter', aggregator: 'sum', values: [{ value: woken, labels: {} }] }] });
  else process.exit(0);
});
parentPort.postMessage({ type: 'ready' });
${exitAfterMs === null ? '' : `setTimeout(() => process.exit(3), ${exitAfterMs});`}
`;

const folders: string[] = [];
function script(source: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'jobs-thread-'));
  folders.push(folder);
  const file = path.join(folder, 'thread.mjs');
  writeFileSync(file, source);
  return file;
}

function recordingLogger() {
  const lines: { msg: string; exitCode?: number }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string; exitCode?: number }) },
  );
  return { logger, lines };
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the jobs thread', () => {
  it('is ready once it takes jobs, is woken for jobs sent to start now, serves its counts and stops with the instance', async () => {
    const { logger, lines } = recordingLogger();
    const thread = new JobsThread(script(standIn(null)), 'instance-1', logger);
    expect(thread.state()).toBe('not running');
    thread.start();
    expect(thread.state()).toBe('starting');
    await vi.waitFor(() => expect(thread.state()).toBe('ok'));
    expect(lines.map((line) => line.msg)).toContain('the jobs thread is taking jobs');
    thread.wake('reports.generate.ahc-v7');
    thread.wake('change-sets.run');
    const metrics = await thread.metrics();
    expect(metrics).toEqual([expect.objectContaining({ name: 'jobs_woken', values: [{ value: 2, labels: {} }] })]);
    await thread.stop();
    expect(thread.state()).toBe('not running');
    expect(await thread.metrics()).toEqual([]);
    expect(lines.map((line) => line.msg)).not.toContain('the jobs thread stopped; starting another');
  });

  it('is started again, said in the log, when it stops on its own', async () => {
    const { logger, lines } = recordingLogger();
    const thread = new JobsThread(script(standIn(20)), 'instance-1', logger);
    thread.start();
    await vi.waitFor(
      () => expect(lines.filter((line) => line.msg === 'the jobs thread is taking jobs')).toHaveLength(2),
      { timeout: 5_000, interval: 20 },
    );
    expect(lines.find((line) => line.msg === 'the jobs thread stopped; starting another')?.exitCode).toBe(3);
    await thread.stop();
  });

  it('outlives a database away for minutes: started again and again, saying what it waits for, then ready by itself', async () => {
    const { logger, lines } = recordingLogger();
    const folder = mkdtempSync(path.join(os.tmpdir(), 'jobs-thread-'));
    folders.push(folder);
    const back = path.join(folder, 'database-back');
    // A thread that cannot reach the database until it is back: it says so, and exits as main.ts makes it.
    const source = `
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
if (!existsSync(${JSON.stringify(back)})) {
  parentPort.postMessage({ type: 'failed', fault: 'unreachable' });
  process.exit(1);
}
parentPort.on('message', () => process.exit(0));
parentPort.postMessage({ type: 'ready' });
`;
    const thread = new JobsThread(script(source), 'instance-1', logger, 5);
    thread.start();
    const stops = () => lines.filter((line) => line.msg === 'the jobs thread stopped; starting another').length;
    // Many failed starts in a row: the instance never gives up on its jobs.
    await vi.waitFor(() => expect(stops()).toBeGreaterThanOrEqual(7), { timeout: 10_000, interval: 10 });
    expect(thread.state()).toMatch(/^waiting for the database, which cannot be reached; starting again in \d+ s$/);
    writeFileSync(back, '');
    await vi.waitFor(() => expect(thread.state()).toBe('ok'), { timeout: 10_000, interval: 10 });
    expect(lines.filter((line) => line.msg === 'the jobs thread is taking jobs')).toHaveLength(1);
    await thread.stop();
  });

  it('runs only where it can: a worker instance on PostgreSQL that reaches the platform over the network', () => {
    const base: Parameters<typeof runsJobsOnThread>[0] = {
      workersEnabled: true,
      jobsThread: true,
      databaseUrl: 'postgres://db/ce',
      demoMode: false,
      platformApiUrl: 'https://api.example.com/v7',
    };
    const runs = (changes: Partial<typeof base>) => runsJobsOnThread({ ...base, ...changes });
    expect(runs({})).toBe(true);
    expect(runs({ jobsThread: false })).toBe(false);
    expect(runs({ workersEnabled: false })).toBe(false);
    expect(runs({ databaseUrl: null })).toBe(false);
    expect(runs({ demoMode: true, platformApiUrl: null })).toBe(false);
    expect(runs({ demoMode: true })).toBe(true);
  });
});
