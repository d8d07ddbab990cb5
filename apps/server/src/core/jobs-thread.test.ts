import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobsThread, runsJobsOnThread } from './jobs-thread.js';

/**
 * Stand-ins for the jobs thread, speaking its protocol: ready once started, counts when asked, gone when told
 * to stop. `EXIT_AFTER_MS` makes one that stops on its own.
 */
const standIn = (exitAfterMs: number | null) => `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (message) => {
  if (message.type === 'metrics')
    parentPort.postMessage({ type: 'metrics', id: message.id, metrics: [{ name: 'jobs_done', help: 'h', type: 'counter', aggregator: 'sum', values: [{ value: 7, labels: {} }] }] });
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
  const lines: { msg: string; code?: number }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string; code?: number }) },
  );
  return { logger, lines };
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the jobs thread', () => {
  it('serves its counts to the main thread and stops with the instance', async () => {
    const { logger, lines } = recordingLogger();
    const thread = new JobsThread(script(standIn(null)), 'instance-1', logger);
    thread.start();
    await vi.waitFor(() => expect(lines.map((line) => line.msg)).toContain('the jobs thread is taking jobs'));
    const metrics = await thread.metrics();
    expect(metrics).toEqual([expect.objectContaining({ name: 'jobs_done', values: [{ value: 7, labels: {} }] })]);
    await thread.stop();
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
    expect(lines.find((line) => line.msg === 'the jobs thread stopped; starting another')?.code).toBe(3);
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
