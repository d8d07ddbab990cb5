import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../core/database.js';
import { watchRuns, watches } from '../../db/schema.js';

type WatchRow = typeof watches.$inferSelect;

/**
 * The scheduler takes at most this many due watches in one transaction, and takes batches until none is due: one
 * insert and one update per batch (10,000 due at once are some twenty statements of each).
 */
const SCHEDULE_BATCH = 500;

/** What the scheduler's insert answers (either driver). */
const insertedSchema = z.object({ rows: z.array(z.object({ id: z.string(), organization_id: z.string() })) });
const nowSchema = z.object({ rows: z.tuple([z.object({ now: z.coerce.date() })]) });

/** The database's clock (decision 0023): what judges due times, whatever the instance's clock says. */
async function databaseNow(db: Db): Promise<Date> {
  return nowSchema.parse(await db.execute(sql`select now() as now`)).rows[0].now;
}

/** SQL for the scheduler: making the due runs of watches, each once, in batches any instance may take. */
export class WatchScheduleRepository {
  constructor(private readonly db: Db) {}

  /** The database's clock now. */
  databaseNow(): Promise<Date> {
    return databaseNow(this.db);
  }

  /**
   * One batch of the scheduler, in one transaction: takes up to SCHEDULE_BATCH active watches whose token is in force
   * and whose next run is due (`FOR UPDATE SKIP LOCKED`: schedulers on other instances take other watches at the same
   * moment), inserts one run per watch and due time in one statement (unique: a run inserted before by a scheduler
   * that died after inserting inserts nothing now), and moves each watch's next run to `next(watch, now)` in one
   * statement. The database's clock judges what is due (`now()`, decision 0023) unless `at` stands for it (tests
   * that set the time). Answers the runs inserted, for the queue, and whether the batch was full (more may be due).
   */
  async batch(
    next: (watch: WatchRow, now: Date) => Date,
    at?: Date,
  ): Promise<{ created: { id: string; organizationId: string }[]; full: boolean }> {
    return this.db.transaction(async (tx) => {
      const now = at ?? (await databaseNow(tx));
      const due = await tx
        .select()
        .from(watches)
        .where(
          and(
            eq(watches.status, 'active'),
            isNotNull(watches.tokenId),
            lte(watches.nextRunAt, now),
            // A token past its consent makes no run: the minute's expiry pauses its watch.
            gt(watches.tokenExpiresAt, now),
          ),
        )
        .orderBy(asc(watches.nextRunAt))
        .limit(SCHEDULE_BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return { created: [], full: false };
      const ids = due.map((watch) => watch.id);
      const inserted = await tx.execute(sql`
        insert into ${watchRuns} (watch_id, user_id, kind, organization_id, organization_name, account_groups, due_at,
          trigger)
        select id, user_id, runs, organization_id, organization_name, account_groups, next_run_at, 'schedule'
        from ${watches} where ${inArray(watches.id, ids)} and next_run_at is not null
        on conflict do nothing
        returning id, organization_id
      `);
      const moves = due.map((watch) => sql`(${watch.id}::uuid, ${next(watch, now).toISOString()}::timestamptz)`);
      await tx.execute(sql`
        update ${watches} set next_run_at = moved.next_run_at, last_run_at = ${watches.nextRunAt}
        from (values ${sql.join(moves, sql`, `)}) as moved (id, next_run_at)
        where ${watches.id} = moved.id
      `);
      const created = insertedSchema.parse(inserted).rows.map((row) => ({
        id: row.id,
        organizationId: row.organization_id,
      }));
      return { created, full: due.length === SCHEDULE_BATCH };
    });
  }
}
