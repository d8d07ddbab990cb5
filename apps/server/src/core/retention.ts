import { lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';

/** A table whose rows expire: an id and a creation time. */
type ExpiringTable = PgTable & { id: PgColumn; createdAt: PgColumn };

/** Retention: deletes the rows of `table` created before `date`; answers how many went. */
export async function deleteCreatedBefore(db: Db, table: ExpiringTable, date: Date): Promise<number> {
  const deleted = await db.delete(table).where(lt(table.createdAt, date)).returning({ id: table.id });
  return deleted.length;
}
