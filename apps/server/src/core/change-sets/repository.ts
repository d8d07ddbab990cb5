import { and, asc, desc, eq, exists, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { bulkRunItems, bulkRuns, users } from '../../db/schema.js';
import type { Db } from '../database.js';
import { Leases, type Lease } from '../lease.js';
import { emailOf } from '../requester.js';

export type ChangeSetRow = typeof bulkRuns.$inferSelect;
export type ChangeItemRow = typeof bulkRunItems.$inferSelect;
export type NewChangeItem = Omit<typeof bulkRunItems.$inferInsert, 'runId'>;
export type ItemTotals = { runId: string; status: string; count: number };

/** SQL for change sets (the tables keep the bulk tools' names) and their items. */
export class ChangeSetRepository {
  readonly leases: Leases<typeof bulkRuns>;

  constructor(private readonly db: Db) {
    this.leases = new Leases(db, bulkRuns);
  }

  /** Inserts a run and its sealed token in one transaction: neither exists without the other. */
  async insertRun(
    row: Omit<typeof bulkRuns.$inferInsert, 'tokenId' | 'targetTokenId'>,
    sealToken: (tx: Pick<Db, 'insert'>) => Promise<string>,
    sealTargetToken?: (tx: Pick<Db, 'insert'>) => Promise<string>,
  ): Promise<ChangeSetRow> {
    return this.db.transaction(async (tx) => {
      const tokenId = await sealToken(tx);
      const targetTokenId = sealTargetToken ? await sealTargetToken(tx) : null;
      const [created] = await tx
        .insert(bulkRuns)
        .values({ ...row, tokenId, targetTokenId })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return created;
    });
  }

  async findRun(id: string): Promise<ChangeSetRow | undefined> {
    const [row] = await this.db.select().from(bulkRuns).where(eq(bulkRuns.id, id));
    return row;
  }

  async listRuns(options: { userId?: string; kinds: string[]; limit: number }) {
    const rows = await this.db
      .select({ run: bulkRuns, requestedBy: users.email })
      .from(bulkRuns)
      .innerJoin(users, eq(users.id, bulkRuns.userId))
      .where(
        and(options.userId ? eq(bulkRuns.userId, options.userId) : sql`true`, inArray(bulkRuns.kind, options.kinds)),
      )
      .orderBy(desc(bulkRuns.createdAt))
      .limit(options.limit);
    return rows.map((row) => ({ ...row.run, requestedBy: row.requestedBy }));
  }

  /** The user's runs of `kinds` that ended after `since` having failed, or with items that failed; newest first. */
  async problemsSince(userId: string, since: Date, limit: number, kinds: string[]): Promise<ChangeSetRow[]> {
    const failedItem = this.db
      .select({ one: sql`1` })
      .from(bulkRunItems)
      .where(and(eq(bulkRunItems.runId, bulkRuns.id), eq(bulkRunItems.status, 'failed')));
    return this.db
      .select()
      .from(bulkRuns)
      .where(
        and(
          eq(bulkRuns.userId, userId),
          inArray(bulkRuns.kind, kinds),
          gt(bulkRuns.finishedAt, since),
          or(eq(bulkRuns.status, 'failed'), exists(failedItem)),
        ),
      )
      .orderBy(desc(bulkRuns.createdAt))
      .limit(limit);
  }

  activeCount(userId: string, kinds: string[]): Promise<number> {
    return this.leases.activeCount(userId, kinds);
  }

  requesterEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  updateRun(id: string, changes: Partial<typeof bulkRuns.$inferInsert>): Promise<void> {
    return this.leases.update(id, changes);
  }

  /** Marks `id` as undone by `undoId` unless another undo got there first; true when this one won. */
  async markUndone(id: string, undoId: string): Promise<boolean> {
    const rows = await this.db
      .update(bulkRuns)
      .set({ undoneBy: undoId })
      .where(and(eq(bulkRuns.id, id), sql`${bulkRuns.undoneBy} is null`))
      .returning({ id: bulkRuns.id });
    return rows.length === 1;
  }

  /** Deletes finished runs created before `before` (their items go with them). */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(bulkRuns)
      .where(and(inArray(bulkRuns.status, ['done', 'failed']), lt(bulkRuns.createdAt, before)))
      .returning({ id: bulkRuns.id });
    return deleted.length;
  }

  /** Writes a run's items and marks it planned, once: a second planner (after a crash) writes nothing. */
  async plan(runId: string, items: NewChangeItem[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [run] = await tx
        .update(bulkRuns)
        .set({ planned: true })
        .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.planned, false)))
        .returning({ id: bulkRuns.id });
      if (!run) return;
      for (let start = 0; start < items.length; start += 500) {
        await tx
          .insert(bulkRunItems)
          .values(items.slice(start, start + 500).map((item) => ({ ...item, runId })))
          .onConflictDoNothing();
      }
    });
  }

  async items(runId: string): Promise<ChangeItemRow[]> {
    return this.db
      .select()
      .from(bulkRunItems)
      .where(eq(bulkRunItems.runId, runId))
      .orderBy(asc(bulkRunItems.phase), asc(bulkRunItems.position));
  }

  /**
   * Takes a pending item for sending, in one statement: false when it is no longer pending (another worker
   * took it) or when the run's lease is no longer `lease` (another worker holds the run now), so no item is
   * sent twice whatever two workers believe.
   */
  async claimItem(id: string, at: Date, lease: Lease): Promise<boolean> {
    const runHeld = this.db
      .select({ id: bulkRuns.id })
      .from(bulkRuns)
      .where(
        and(
          eq(bulkRuns.id, bulkRunItems.runId),
          eq(bulkRuns.id, lease.id),
          eq(bulkRuns.leaseGeneration, lease.generation),
          eq(bulkRuns.status, 'running'),
        ),
      );
    const rows = await this.db
      .update(bulkRunItems)
      .set({ status: 'running', startedAt: at })
      .where(and(eq(bulkRunItems.id, id), eq(bulkRunItems.status, 'pending'), exists(runHeld)))
      .returning({ id: bulkRunItems.id });
    return rows.length === 1;
  }

  async updateItem(id: string, changes: Partial<typeof bulkRunItems.$inferInsert>): Promise<void> {
    await this.db.update(bulkRunItems).set(changes).where(eq(bulkRunItems.id, id));
  }

  /** Marks every item still pending as failed with `error` (the run cannot go on). */
  async failPending(runId: string, error: string, at: Date): Promise<void> {
    await this.db
      .update(bulkRunItems)
      .set({ status: 'failed', error, finishedAt: at })
      .where(and(eq(bulkRunItems.runId, runId), eq(bulkRunItems.status, 'pending')));
  }

  async totals(runIds: string[]): Promise<ItemTotals[]> {
    if (runIds.length === 0) return [];
    const rows = await this.db
      .select({ runId: bulkRunItems.runId, status: bulkRunItems.status, count: sql<number>`count(*)::int` })
      .from(bulkRunItems)
      .where(inArray(bulkRunItems.runId, runIds))
      .groupBy(bulkRunItems.runId, bulkRunItems.status);
    return rows.map((row) => ({ ...row, count: Number(row.count) }));
  }
}
