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
  handle(data: unknown): Promise<void>;
}

/** A job for entries sent to `queue`; their data is checked against `data` before `run` sees it. */
export function queuedJob<T>(definition: { queue: string; data: z.ZodType<T>; run: (data: T) => Promise<void> }): Job {
  return {
    queue: definition.queue,
    batchSize: 1,
    handle: async (data) => definition.run(definition.data.parse(data)),
  };
}

/** A job that runs on a cron schedule. */
export function periodicJob(queue: string, cron: string, run: () => Promise<void>): Job {
  return { queue, cron, handle: run };
}

/** Declares every job's worker (and schedule) on the queue. */
export async function startJobs(queue: JobQueue, jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    await queue.work(
      job.queue,
      async ([entry]) => {
        if (entry) await job.handle(entry.data);
      },
      { batchSize: job.batchSize ?? 1 },
    );
    if (job.cron) await queue.schedule(job.queue, job.cron);
  }
}

/** Nightly, at a quiet time: retention jobs. */
export const NIGHTLY = '17 3 * * *';
export const EVERY_MINUTE = '* * * * *';
