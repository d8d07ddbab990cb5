import { once } from 'node:events';
import os from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config.js';
import type { Metrics, MetricsJson } from './metrics.js';

/** What the main thread asks its jobs thread, and what the jobs thread says. */
type ToJobs = { type: 'metrics'; id: number } | { type: 'stop' };
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
 * The jobs thread's side: lowers its own CPU priority (on Linux a priority set for "the calling process" is the
 * calling thread's; the PDF thread it starts inherits it), answers the main thread, and stops when told.
 */
export function serveJobsThread(metrics: Metrics, stop: () => Promise<void>): void {
  if (process.platform === 'linux') {
    try {
      os.setPriority(0, Math.min(19, os.getPriority(0) + 10));
    } catch {
      // Not allowed here: the thread runs at the process's priority.
    }
  }
  const port = parentPort;
  if (!port) throw new Error('serveJobsThread runs on a jobs thread only');
  port.on('message', (message: ToJobs) => {
    if (message.type === 'metrics')
      void metrics.registry.getMetricsAsJSON().then((json) => {
        const answer: FromJobs = { type: 'metrics', id: message.id, metrics: json };
        port.postMessage(answer);
      });
    else
      void stop().finally(() => {
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
  private stopping = false;
  private restartMs = RESTART_FIRST_MS;
  private nextId = 0;
  private readonly asked = new Map<number, (metrics: MetricsJson) => void>();

  constructor(
    private readonly entry: string,
    private readonly instanceId: string,
    private readonly logger: FastifyBaseLogger,
  ) {}

  start(): void {
    const data: JobsThreadData = { role: 'jobs', instanceId: this.instanceId };
    const worker = new Worker(this.entry, { workerData: data });
    this.worker = worker;
    worker.on('message', (message: FromJobs) => {
      if (message.type === 'ready') {
        this.restartMs = RESTART_FIRST_MS;
        this.logger.info('the jobs thread is taking jobs');
        return;
      }
      this.asked.get(message.id)?.(message.metrics);
      this.asked.delete(message.id);
    });
    worker.on('error', (error) => this.logger.error({ err: error }, 'the jobs thread failed'));
    worker.on('exit', (code) => {
      this.worker = null;
      for (const answer of this.asked.values()) answer([]);
      this.asked.clear();
      if (this.stopping) return;
      this.logger.error({ code, restartInMs: this.restartMs }, 'the jobs thread stopped; starting another');
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, this.restartMs).unref();
      this.restartMs = Math.min(RESTART_MAX_MS, this.restartMs * 2);
    });
  }

  /** The jobs thread's counts; none when it is not running or does not answer in time. */
  metrics(): Promise<MetricsJson> {
    const worker = this.worker;
    if (!worker) return Promise.resolve([]);
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
