import { lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';
import { NIGHTLY, periodicJob, type Job } from './jobs.js';

/** A table whose rows expire: an id and a creation time. */
type ExpiringTable = PgTable & { id: PgColumn; createdAt: PgColumn };

/** Retention: deletes the rows of `table` created before `date`; answers how many went. */
export async function deleteCreatedBefore(db: Db, table: ExpiringTable, date: Date): Promise<number> {
  const deleted = await db.delete(table).where(lt(table.createdAt, date)).returning({ id: table.id });
  return deleted.length;
}

const DAY_MS = 86_400_000;

/** What a nightly retention job empties: whatever is older than a date. */
export interface Expiring {
  deleteOlderThan(date: Date): Promise<number>;
}

/** A module's nightly retention: deletes from `store` whatever is older than `retentionDays`. */
export function retentionJob(
  queue: string,
  store: Expiring,
  retentionDays: number,
  logger: { info(object: object, message: string): void },
): Job {
  return periodicJob(queue, NIGHTLY, async () => {
    const deleted = await store.deleteOlderThan(new Date(Date.now() - retentionDays * DAY_MS));
    if (deleted) logger.info({ deleted, retentionDays, queue }, 'retention: old entries deleted');
  });
}
