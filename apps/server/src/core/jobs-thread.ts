import { once } from 'node:events';
import os from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config.js';
import type { Metrics, MetricsJson } from './metrics.js';

/** What the main thread asks its jobs thread, and what the jobs thread says. */
type ToJobs = { type: 'metrics'; id: number } | { type: 'wake'; name: string } | { type: 'stop' };
type FromJobs = { type: 'ready' } | { type: 'metrics'; id: number; metrics: MetricsJson };

/** What the main thread gives the jobs thread besides the environment both read. */
interface JobsThreadData {
  role: 'jobs';
  instanceId: string;
}

/** How long the main thread waits for the jobs thread's counts before serving its own. */
const METRICS_WAIT_MS = 5_000;
/** A jobs thread that stopped on its own is started again after this, doubled on each stop in a row, at most 30 s. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A jobs thread that stops this many times in a row before it is ready ends the process: the instance cannot work. */
const FAILED_STARTS_MAX = 5;

/**
 * Whether this instance works its jobs on a thread of its own (decision 0035): it takes jobs, on PostgreSQL (the
 * embedded database belongs to one thread), with the platform reached over the network (the embedded sandbox
 * lives in the main thread), unless JOBS_THREAD=false.
 */
export function runsJobsOnThread(
  config: Pick<AppConfig, 'workersEnabled' | 'jobsThread' | 'databaseUrl' | 'demoMode' | 'platformApiUrl'>,
): boolean {
  const embeddedSandbox = config.demoMode && config.platformApiUrl === null;
  return config.workersEnabled && config.jobsThread && config.databaseUrl !== null && !embeddedSandbox;
}

/** The instance id the main thread gave this thread, when this thread is an instance's jobs thread. */
export function jobsThreadInstanceId(): string | null {
  if (isMainThread) return null;
  const data: unknown = workerData;
  if (typeof data !== 'object' || data === null || !('role' in data) || data.role !== 'jobs') return null;
  return 'instanceId' in data && typeof data.instanceId === 'string' ? data.instanceId : null;
}

/**
 * Lowers the calling thread's CPU priority to 10 below the process's (on Linux a priority set for "the calling
 * process" is the calling thread's own, and a thread starts at its parent thread's): background work gives way to
 * the threads answering people. A thread started by one already lowered stays where it is.
 */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const target = Math.min(19, os.getPriority(process.pid) + 10);
    if (os.getPriority(0) < target) os.setPriority(0, target);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

/**
 * The jobs thread's side: lowers its own CPU priority, answers the main thread (its counts; a job sent there, to
 * start now), and stops when told.
 */
export function serveJobsThread(jobs: {
  metrics: Metrics;
  wake: (name: string) => void;
  stop: () => Promise<void>;
}): void {
  lowerThreadPriority();
  const port = parentPort;
  if (!port) throw new Error('serveJobsThread runs on a jobs thread only');
  port.on('message', (message: ToJobs) => {
    if (message.type === 'metrics')
      void jobs.metrics.registry.getMetricsAsJSON().then((json) => {
        const answer: FromJobs = { type: 'metrics', id: message.id, metrics: json };
        port.postMessage(answer);
      });
    else if (message.type === 'wake') jobs.wake(message.name);
    else
      void jobs.stop().finally(() => {
        process.exit(0);
      });
  });
  const ready: FromJobs = { type: 'ready' };
  port.postMessage(ready);
}

/**
 * The main thread's side: starts the jobs thread on this process's entry point (the same code, the same loader),
 * starts another when one stops on its own, asks it for its counts, and stops it with the instance.
 */
export class JobsThread {
  private worker: Worker | null = null;
  private ready = false;
  private stopping = false;
  private restartMs: number;
  private failedStarts = 0;
  private nextId = 0;
  private readonly asked = new Map<number, (metrics: MetricsJson) => void>();

  constructor(
    private readonly entry: string,
    private readonly instanceId: string,
    private readonly logger: FastifyBaseLogger,
    /** Called when the thread keeps stopping before it is ready: the instance should end (its orchestrator restarts it). */
    private readonly giveUp: () => void,
    private readonly restartFirstMs = RESTART_FIRST_MS,
  ) {
    this.restartMs = restartFirstMs;
  }

  /** For `/readyz`: 'ok' once the thread takes jobs. */
  state(): string {
    return this.ready ? 'ok' : this.worker ? 'starting' : 'not running';
  }

  /** A job was sent to start now: the thread's idle workers of that queue take it at once. */
  wake(name: string): void {
    if (!this.ready || !this.worker) return;
    const wake: ToJobs = { type: 'wake', name };
    this.worker.postMessage(wake);
  }

  start(): void {
    const data: JobsThreadData = { role: 'jobs', instanceId: this.instanceId };
    const worker = new Worker(this.entry, { workerData: data });
    this.worker = worker;
    worker.on('message', (message: FromJobs) => {
      if (message.type === 'ready') {
        this.ready = true;
        this.failedStarts = 0;
        this.restartMs = this.restartFirstMs;
        this.logger.info('the jobs thread is taking jobs');
        return;
      }
      this.asked.get(message.id)?.(message.metrics);
      this.asked.delete(message.id);
    });
    worker.on('error', (error) => this.logger.error({ err: error }, 'the jobs thread failed'));
    worker.on('exit', (exitCode) => {
      const wasReady = this.ready;
      this.worker = null;
      this.ready = false;
      for (const answer of this.asked.values()) answer([]);
      this.asked.clear();
      if (this.stopping) return;
      if (!wasReady && ++this.failedStarts >= FAILED_STARTS_MAX) {
        this.logger.fatal({ exitCode, failedStarts: this.failedStarts }, 'the jobs thread cannot start; stopping');
        this.giveUp();
        return;
      }
      this.logger.error({ exitCode, restartInMs: this.restartMs }, 'the jobs thread stopped; starting another');
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, this.restartMs).unref();
      this.restartMs = Math.min(RESTART_MAX_MS, this.restartMs * 2);
    });
  }

  /** The jobs thread's counts; none when it is not running yet or does not answer in time. */
  metrics(): Promise<MetricsJson> {
    const worker = this.worker;
    if (!worker || !this.ready) return Promise.resolve([]);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.asked.delete(id);
        resolve([]);
      }, METRICS_WAIT_MS);
      this.asked.set(id, (metrics) => {
        clearTimeout(timer);
        resolve(metrics);
      });
      const question: ToJobs = { type: 'metrics', id };
      worker.postMessage(question);
    });
  }

  /** Stops the jobs thread as an instance stops its workers: running jobs get the shutdown grace, then go back. */
  async stop(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    const stop: ToJobs = { type: 'stop' };
    worker.postMessage(stop);
    await exited;
  }
}
