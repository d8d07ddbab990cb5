import { retentionJob, type Expiring } from '../../core/retention.js';
import type { Job } from '../../core/jobs.js';

/** Nightly: what the tool keeps is gone after RETENTION_DAYS. */
export function trackerJobs(
  store: Expiring,
  retentionDays: number,
  logger: { info(object: object, message: string): void },
): Job[] {
  return [retentionJob('tracker.retention', store, retentionDays, logger)];
}
