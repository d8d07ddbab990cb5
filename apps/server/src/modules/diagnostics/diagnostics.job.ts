import { retentionJob, type Expiring } from '../../core/retention.js';
import type { Job } from '../../core/jobs.js';

/** Nightly: what the tool keeps is gone after RETENTION_DAYS. */
export function diagnosticsJobs(
  store: Expiring,
  retentionDays: number,
  logger: { info(object: object, message: string): void },
): Job[] {
  return [retentionJob('diagnostics.retention', store, retentionDays, logger)];
}
