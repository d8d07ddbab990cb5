import { NIGHTLY, periodicJob, type Job } from '../../core/jobs.js';
import type { IdentityService } from './identity.service.js';

const DAY_MS = 86_400_000;

/** Nightly retention of security events, and removal of throttles, codes and challenges that are over. */
export function identityJobs(
  identity: IdentityService,
  retentionDays: number,
  logger: { info(object: object, message: string): void },
): Job[] {
  return [
    periodicJob('identity.retention', NIGHTLY, async () => {
      const deleted = await identity.pruneBefore(new Date(Date.now() - retentionDays * DAY_MS));
      if (deleted) logger.info({ deleted, retentionDays }, 'retention: security events deleted');
    }),
  ];
}
