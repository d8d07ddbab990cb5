import { NIGHTLY, periodicJob, type Job } from '../../core/jobs.js';

const DAY_MS = 86_400_000;

interface Expiring {
  deleteOlderThan(date: Date): Promise<number>;
}

/**
 * Nightly retention of what the support tools and the time tracker keep (captures with their bytes,
 * diagnostic results, tracker results files): nothing is older than RETENTION_DAYS.
 */
export function retentionJobs(
  stores: Record<string, Expiring>,
  retentionDays: number,
  logger: { info(object: object, message: string): void },
): Job[] {
  return [
    periodicJob('tools.retention', NIGHTLY, async () => {
      const before = new Date(Date.now() - retentionDays * DAY_MS);
      for (const [name, store] of Object.entries(stores)) {
        const deleted = await store.deleteOlderThan(before);
        if (deleted) logger.info({ deleted, retentionDays, store: name }, 'retention: old entries deleted');
      }
    }),
  ];
}
