import { periodicJob, type Job } from '../../core/jobs.js';
import type { AuthService } from './auth.service.js';

/** Expired sessions are removed every 15 minutes. */
export function sessionJobs(auth: AuthService, logger: { info(object: object, message: string): void }): Job[] {
  return [
    periodicJob('sessions.purge-expired', '*/15 * * * *', async () => {
      const purged = await auth.purgeExpired();
      if (purged > 0) logger.info({ purged }, 'expired sessions removed');
    }),
  ];
}
