import { and, asc, desc, eq, gt, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { Leases } from '../../core/lease.js';
import { emailOf } from '../../core/requester.js';
import { backups, reportRequests, sealedTokens, watchRuns, watches, watchWaivers } from '../../db/schema.js';

export type WatchRunRow = typeof watchRuns.$inferSelect;
type WatchRow = typeof watches.$inferSelect;

/** The scheduler takes at most this many due watches in one transaction; the rest wait for the next minute. */
const SCHEDULE_BATCH = 100;

/** SQL for the runs of watches: scheduling each due run once, the run as a leased job, and its history. */
export class WatchRunsRepository {
  readonly leases: Leases<typeof watchRuns>;

  constructor(private readonly db: Db) {
    this.leases = new Leases(db, watchRuns);
  }

  /**
   * One transaction: takes the active watches with a token due by `now` (`FOR UPDATE SKIP LOCKED`: another
   * scheduler takes the others), inserts one run per watch and due time (unique: a run inserted before by a
   * scheduler that died after inserting inserts nothing now), and moves each watch's next run to `next(watch)`.
   * Answers the runs inserted, for the queue.
   */
  async schedule(now: Date, next: (watch: WatchRow) => Date): Promise<WatchRunRow[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(watches)
        .where(and(eq(watches.status, 'active'), isNotNull(watches.tokenId), lte(watches.nextRunAt, now)))
        .orderBy(asc(watches.nextRunAt))
        .limit(SCHEDULE_BATCH)
        .for('update', { skipLocked: true });
      const created: WatchRunRow[] = [];
      for (const watch of due) {
        if (!watch.nextRunAt) continue;
        const [run] = await tx
          .insert(watchRuns)
          .values(runOf(watch, watch.nextRunAt, 'schedule'))
          .onConflictDoNothing()
          .returning();
        if (run) created.push(run);
        await tx
          .update(watches)
          .set({ nextRunAt: next(watch), lastRunAt: watch.nextRunAt })
          .where(eq(watches.id, watch.id));
      }
      return created;
    });
  }

  /** "Run now": a run due at `now`, through the same unique rule (a double click within the same instant runs once). */
  async runNow(watch: WatchRow, now: Date): Promise<WatchRunRow | undefined> {
    const [run] = await this.db
      .insert(watchRuns)
      .values(runOf(watch, now, 'now'))
      .onConflictDoNothing()
      .returning();
    if (run) await this.db.update(watches).set({ lastRunAt: now }).where(eq(watches.id, watch.id));
    return run;
  }

  async find(id: string): Promise<WatchRunRow | undefined> {
    const [row] = await this.db.select().from(watchRuns).where(eq(watchRuns.id, id));
    return row;
  }

  async watch(id: string): Promise<WatchRow | undefined> {
    const [row] = await this.db.select().from(watches).where(eq(watches.id, id));
    return row;
  }

  /** The watch's latest finished run before `run` (what `run` compares with), or undefined for its first. */
  async previous(run: WatchRunRow): Promise<WatchRunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(watchRuns)
      .where(
        and(eq(watchRuns.watchId, run.watchId), eq(watchRuns.status, 'done'), lt(watchRuns.createdAt, run.createdAt)),
      )
      .orderBy(desc(watchRuns.createdAt))
      .limit(1);
    return row;
  }

  /** When the watch last said something (a message sent), before `before`. */
  async lastSaid(watchId: string, before: Date): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: watchRuns.finishedAt })
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watchId), eq(watchRuns.deliveryStatus, 'sent'), lt(watchRuns.createdAt, before)))
      .orderBy(desc(watchRuns.createdAt))
      .limit(1);
    return row?.at ?? null;
  }

  ownerEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  /** The waivers of an organization in force at `now`. */
  activeWaivers(organizationId: string, now: Date): Promise<{ checkId: string; itemKey: string | null }[]> {
    return this.db
      .select({ checkId: watchWaivers.checkId, itemKey: watchWaivers.itemKey })
      .from(watchWaivers)
      .where(and(eq(watchWaivers.organizationId, organizationId), gt(watchWaivers.expiresAt, now)));
  }

  /** The watch's latest finished run that made a health check. */
  async latestWithFindings(watchId: string): Promise<WatchRunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watchId), eq(watchRuns.status, 'done'), isNotNull(watchRuns.findings)))
      .orderBy(desc(watchRuns.createdAt))
      .limit(1);
    return row;
  }

  /** A watch's runs, newest first. */
  list(watchId: string, limit: number): Promise<WatchRunRow[]> {
    return this.db
      .select()
      .from(watchRuns)
      .where(eq(watchRuns.watchId, watchId))
      .orderBy(desc(watchRuns.createdAt))
      .limit(limit);
  }

  /** The runs of these watches that have not ended (what a pause or a token's end stops). */
  unfinished(watchId: string): Promise<WatchRunRow[]> {
    return this.db
      .select()
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watchId), inArray(watchRuns.status, ['queued', 'running'])));
  }

  /**
   * Ends the watch's unfinished runs and the health checks and backups they started, failed with `reason`, in one
   * transaction: each row's lease is taken from its worker (its generation moves on, so its next write, renewal or
   * write into the customer's account is refused and its platform calls are cancelled), and their sealed copies of
   * the customer's token are erased. Answers how many rows it ended.
   */
  async cancelUnfinished(watchId: string, reason: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const unfinished = inArray(watchRuns.status, ['queued', 'running']);
      const runs = await tx
        .update(watchRuns)
        .set({
          status: 'failed',
          error: reason,
          finishedAt: new Date(),
          deliveryStatus: 'none',
          leaseUntil: null,
          leaseGeneration: sql`${watchRuns.leaseGeneration} + 1`,
        })
        .where(and(eq(watchRuns.watchId, watchId), unfinished))
        .returning({ id: watchRuns.id });
      const ofWatch = tx.select({ id: watchRuns.id }).from(watchRuns).where(eq(watchRuns.watchId, watchId));
      let ended = runs.length;
      for (const table of [reportRequests, backups] as const) {
        const where = and(inArray(table.watchRunId, ofWatch), inArray(table.status, ['queued', 'running']));
        const held = await tx.select({ tokenId: table.tokenId }).from(table).where(where);
        const parts = await tx
          .update(table)
          .set({
            status: 'failed',
            error: reason,
            finishedAt: new Date(),
            leaseUntil: null,
            leaseGeneration: sql`${table.leaseGeneration} + 1`,
            tokenId: null,
          })
          .where(where)
          .returning({ id: table.id });
        const tokenIds = held.flatMap((row) => (row.tokenId ? [row.tokenId] : []));
        if (tokenIds.length > 0) await tx.delete(sealedTokens).where(inArray(sealedTokens.id, tokenIds));
        ended += parts.length;
      }
      return ended;
    });
  }

  update(id: string, changes: Partial<typeof watchRuns.$inferInsert>): Promise<void> {
    return this.leases.update(id, changes);
  }

  /** Retention (WATCH_HISTORY_DAYS): finished runs older than `before`. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(watchRuns)
      .where(and(inArray(watchRuns.status, ['done', 'failed']), lt(watchRuns.createdAt, before)))
      .returning({ id: watchRuns.id });
    return deleted.length;
  }

  /** Notes the queue job of a run, so recovery can tell when it is lost. */
  async noteJob(id: string, jobId: string | null): Promise<void> {
    await this.db.update(watchRuns).set({ jobId }).where(eq(watchRuns.id, id));
  }
}

function runOf(watch: WatchRow, dueAt: Date, trigger: 'schedule' | 'now'): typeof watchRuns.$inferInsert {
  return {
    watchId: watch.id,
    userId: watch.userId,
    kind: watch.runs,
    organizationId: watch.organizationId,
    organizationName: watch.organizationName,
    accountGroups: watch.accountGroups,
    dueAt,
    trigger,
  };
}
