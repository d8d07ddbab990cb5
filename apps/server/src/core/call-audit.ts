import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AnsweredCall } from '@ce/platform-client';
import { auditLog, users, watchRuns } from '../db/schema.js';
import type { Db } from './database.js';

/** The audit action of one platform call made for a watch. */
export const WATCH_CALL_ACTION = 'watch.platformCall';

/**
 * Every platform call made for a watch, audited with the watch's id (decision 0031): its method, path and status,
 * never the token. The jobs a watch run starts (its health check, its backups) pass `observer(watchRunId)` as their
 * platform session's `onAnswer`; the rows are written in order, one at a time, apart from the calls themselves.
 */
export class CallAudit {
  constructor(
    private readonly db: Db,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** The session's `onAnswer` for the jobs of watch run `watchRunId`; undefined for a job no watch started. */
  observer(watchRunId: string | null): ((call: AnsweredCall) => void) | undefined {
    if (!watchRunId) return undefined;
    let run: Promise<{ watchId: string; userId: string; email: string } | undefined> | undefined;
    let written: Promise<void> = Promise.resolve();
    const whose = () =>
      (run ??= this.db
        .select({ watchId: watchRuns.watchId, userId: watchRuns.userId, email: users.email })
        .from(watchRuns)
        .innerJoin(users, eq(users.id, watchRuns.userId))
        .where(eq(watchRuns.id, watchRunId))
        .then((rows) => rows[0]));
    return (call) => {
      written = written
        .then(async () => {
          const owner = await whose();
          if (!owner) return;
          await this.db.insert(auditLog).values({
            actorId: owner.userId,
            actorEmail: owner.email,
            action: WATCH_CALL_ACTION,
            target: owner.watchId,
            detail: { watchRunId, method: call.method, path: call.path, status: call.status },
          });
        })
        .catch((error: unknown) =>
          this.logger.warn({ err: error, watchRunId }, 'a watch platform call was not audited'),
        );
    };
  }
}
