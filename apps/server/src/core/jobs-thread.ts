import { once } from 'node:events';
import os from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config.js';
import { databaseFault, type DatabaseFault } from './database-faults.js';
import type { Metrics, MetricsJson } from './metrics.js';

/** What the main thread asks its jobs thread, and what the jobs thread says. */
type ToJobs = { type: 'metrics'; id: number } | { type: 'wake'; name: string } | { type: 'stop' };
type FromJobs =
  | { type: 'ready' }
  | { type: 'metrics'; id: number; metrics: MetricsJson }
  | { type: 'failed'; fault: DatabaseFault | null };

/** What the main thread gives the jobs thread besides the environment both read. */
interface JobsThreadData {
  role: 'jobs';
  instanceId: string;
}

/** How long the main thread waits for the jobs thread's counts before serving its own. */
const METRICS_WAIT_MS = 5_000;
/**
 * A jobs thread that stopped on its own is started again after this, doubled on each stop in a row, at most 30 s,
 * for as long as it takes: an instance outlives a database that is away for minutes, and works again by itself.
 */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;

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

/** On a jobs thread that cannot go on: tells the main thread whether the database was why, before it exits. */
export function tellJobsThreadFailed(error: unknown): void {
  const failed: FromJobs = { type: 'failed', fault: databaseFault(error) };
  parentPort?.postMessage(failed);
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
  /** Why the last thread stopped before it was ready, and when the next one starts: what `/readyz` says. */
  private waiting: { reason: string; until: number } | null = null;
  /** What the thread that stopped said of its failure (an error thrown there crosses as words, without its code). */
  private lastFault: DatabaseFault | null = null;
  private nextId = 0;
  private readonly asked = new Map<number, (metrics: MetricsJson) => void>();

  constructor(
    private readonly entry: string,
    private readonly instanceId: string,
    private readonly logger: FastifyBaseLogger,
    private readonly restartFirstMs = RESTART_FIRST_MS,
    private readonly clock: () => number = Date.now,
  ) {
    this.restartMs = restartFirstMs;
  }

  /** For `/readyz`: 'ok' once the thread takes jobs; else what it waits for ("waiting for the database: …"). */
  state(): string {
    if (this.ready) return 'ok';
    if (this.waiting) {
      const seconds = Math.max(0, Math.ceil((this.waiting.until - this.clock()) / 1000));
      return `${this.waiting.reason}; starting again in ${seconds} s`;
    }
    return this.worker ? 'starting' : 'not running';
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
        this.waiting = null;
        this.lastFault = null;
        this.restartMs = this.restartFirstMs;
        this.logger.info('the jobs thread is taking jobs');
        return;
      }
      if (message.type === 'failed') {
        this.lastFault = message.fault;
        return;
      }
      this.asked.get(message.id)?.(message.metrics);
      this.asked.delete(message.id);
    });
    worker.on('error', (error) => {
      this.lastFault = databaseFault(error);
      this.logger.error({ err: error }, 'the jobs thread failed');
    });
    worker.on('exit', (exitCode) => {
      this.worker = null;
      this.ready = false;
      for (const answer of this.asked.values()) answer([]);
      this.asked.clear();
      if (this.stopping) return;
      const fault = this.lastFault;
      const reason =
        fault === 'unreachable'
          ? 'waiting for the database, which cannot be reached'
          : fault === 'disk-full'
            ? "waiting for the database's disk, which is full"
            : `the jobs thread stopped (exit code ${exitCode})`;
      this.lastFault = null;
      this.waiting = { reason, until: this.clock() + this.restartMs };
      this.logger.error({ exitCode, restartInMs: this.restartMs, fault }, 'the jobs thread stopped; starting another');
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
