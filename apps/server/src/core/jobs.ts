import type { z } from 'zod';
import type { JobQueue } from './queue.js';

/**
 * A job a module runs in the background: a queue and what to do with each entry. Modules declare their
 * jobs in `<name>.job.ts`; the app starts them all on instances that take jobs (WORKERS_ENABLED).
 */
export interface Job {
  queue: string;
  /** Cron schedule for periodic jobs (pg-boss runs each slot once across instances). */
  cron?: string;
  /** Entries taken at once; most jobs take one at a time. */
  batchSize?: number;
  /** Whether several entries may run at once on one instance (queued work does; periodic jobs run one at a time). */
  concurrent?: boolean;
  handle(data: unknown): Promise<void>;
}

/** A job for entries sent to `queue`; their data is checked against `data` before `run` sees it. */
export function queuedJob<T>(definition: { queue: string; data: z.ZodType<T>; run: (data: T) => Promise<void> }): Job {
  return {
    queue: definition.queue,
    batchSize: 1,
    concurrent: true,
    handle: async (data) => definition.run(definition.data.parse(data)),
  };
}

/** A job that runs on a cron schedule. */
export function periodicJob(queue: string, cron: string, run: () => Promise<void>): Job {
  return { queue, cron, handle: run };
}

export interface JobObservers {
  metrics: { job(queue: string, outcome: 'completed' | 'failed', seconds: number): void };
  logger: { debug(object: object, message: string): void; error(object: object, message: string): void };
}

/**
 * Declares every job's worker (and schedule) on the queue. Each job taken is timed and its outcome
 * counted; its log lines name the queue and the queue's job id (and, through the logger, the instance).
 */
export async function startJobs(queue: JobQueue, observers: JobObservers, jobs: Job[], concurrency = 1): Promise<void> {
  for (const job of jobs) {
    await queue.work(
      job.queue,
      async ([entry]) => {
        if (!entry) return;
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        const log = { queue: job.queue, jobId: entry.id };
        observers.logger.debug(log, 'job started');
        try {
          await job.handle(entry.data);
          observers.metrics.job(job.queue, 'completed', seconds());
          observers.logger.debug({ ...log, durationMs: Math.round(seconds() * 1000) }, 'job completed');
        } catch (error) {
          observers.metrics.job(job.queue, 'failed', seconds());
          // A job left for another instance by one that stops (HandedBack) is no fault: the queue hands it out again.
          if (error instanceof Error && error.name === 'HandedBack')
            observers.logger.debug({ ...log }, 'job left for another instance');
          else observers.logger.error({ ...log, err: error }, 'job failed');
          throw error;
        }
      },
      { batchSize: job.batchSize ?? 1 },
      job.concurrent ? concurrency : 1,
    );
    if (job.cron) await queue.schedule(job.queue, job.cron);
  }
  for (const name of RETIRED_SCHEDULES) await queue.unschedule(name);
}

/** Periodic jobs of earlier versions, whose schedules would otherwise fill queues nobody works. */
const RETIRED_SCHEDULES = ['tools.retention', 'bulk.recover', 'bulk.retention'];

/** Nightly, at a quiet time: retention jobs. */
export const NIGHTLY = '17 3 * * *';
export const EVERY_MINUTE = '* * * * *';
