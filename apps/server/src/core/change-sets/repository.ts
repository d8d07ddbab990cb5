import { and, asc, desc, eq, exists, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { changeSetItems, changeSets, users } from '../../db/schema.js';
import type { Db } from '../database.js';
import { Leases, type Lease } from '../lease.js';
import { emailOf } from '../requester.js';
import { timelineWhere, type TimelineQuery } from '../timeline.js';

export type ChangeSetRow = typeof changeSets.$inferSelect;
export type ChangeItemRow = typeof changeSetItems.$inferSelect;
export type NewChangeItem = Omit<typeof changeSetItems.$inferInsert, 'runId'>;
export type ItemTotals = { runId: string; status: string; count: number };

/** SQL for change sets (one table, `change_sets`) and their items. */
export class ChangeSetRepository {
  readonly leases: Leases<typeof changeSets>;

  constructor(private readonly db: Db) {
    this.leases = new Leases(db, changeSets);
  }

  /** Inserts a run and its sealed token in one transaction: neither exists without the other. */
  async insertRun(
    row: Omit<typeof changeSets.$inferInsert, 'tokenId' | 'targetTokenId'>,
    sealToken: (tx: Pick<Db, 'insert'>) => Promise<string>,
    sealTargetToken?: (tx: Pick<Db, 'insert'>) => Promise<string>,
  ): Promise<ChangeSetRow> {
    return this.db.transaction(async (tx) => {
      const tokenId = await sealToken(tx);
      const targetTokenId = sealTargetToken ? await sealTargetToken(tx) : null;
      const [created] = await tx
        .insert(changeSets)
        .values({ ...row, tokenId, targetTokenId })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return created;
    });
  }

  async findRun(id: string): Promise<ChangeSetRow | undefined> {
    const [row] = await this.db.select().from(changeSets).where(eq(changeSets.id, id));
    return row;
  }

  async listRuns(options: { userId?: string; kinds: string[]; limit: number }) {
    const rows = await this.db
      .select({ run: changeSets, requestedBy: users.email })
      .from(changeSets)
      .innerJoin(users, eq(users.id, changeSets.userId))
      .where(
        and(
          options.userId ? eq(changeSets.userId, options.userId) : sql`true`,
          inArray(changeSets.kind, options.kinds),
        ),
      )
      .orderBy(desc(changeSets.createdAt))
      .limit(options.limit);
    return rows.map((row) => ({ ...row.run, requestedBy: row.requestedBy }));
  }

  /**
   * One organization's runs of `kinds` for its page (runs that wrote into it from another one too), newest first,
   * with their owners and the account groups their items touched.
   */
  async timeline(query: TimelineQuery, kinds: string[]) {
    const groups = sql<
      string[]
    >`coalesce((select array_agg(distinct ${changeSetItems.accountGroupName}) from ${changeSetItems} where ${changeSetItems.runId} = ${changeSets.id}), '{}')`;
    return this.db
      .select({ run: changeSets, name: users.name, email: users.email, accountGroups: groups })
      .from(changeSets)
      .innerJoin(users, eq(users.id, changeSets.userId))
      .where(and(inArray(changeSets.kind, kinds), timelineWhere(query, changeSets)))
      .orderBy(desc(changeSets.createdAt))
      .limit(query.limit);
  }

  /** The user's runs of `kinds` that ended after `since` having failed, or with items that failed; newest first. */
  async problemsSince(userId: string, since: Date, limit: number, kinds: string[]): Promise<ChangeSetRow[]> {
    const failedItem = this.db
      .select({ one: sql`1` })
      .from(changeSetItems)
      .where(and(eq(changeSetItems.runId, changeSets.id), eq(changeSetItems.status, 'failed')));
    return this.db
      .select()
      .from(changeSets)
      .where(
        and(
          eq(changeSets.userId, userId),
          inArray(changeSets.kind, kinds),
          gt(changeSets.finishedAt, since),
          or(eq(changeSets.status, 'failed'), exists(failedItem)),
        ),
      )
      .orderBy(desc(changeSets.createdAt))
      .limit(limit);
  }

  activeCount(userId: string, kinds: string[]): Promise<number> {
    return this.leases.activeCount(userId, kinds);
  }

  requesterEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  /** A write of the run row by a request or a keeper (the running job writes its row through its HeldJob). */
  updateRun(id: string, changes: Partial<typeof changeSets.$inferInsert>): Promise<void> {
    return this.leases.update(id, changes);
  }

  /** Marks `id` as undone by `undoId` unless another undo got there first; true when this one won. */
  async markUndone(id: string, undoId: string): Promise<boolean> {
    const rows = await this.db
      .update(changeSets)
      .set({ undoneBy: undoId })
      .where(and(eq(changeSets.id, id), sql`${changeSets.undoneBy} is null`))
      .returning({ id: changeSets.id });
    return rows.length === 1;
  }

  /** Deletes finished runs created before `before` (their items go with them). */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(changeSets)
      .where(and(inArray(changeSets.status, ['done', 'failed']), lt(changeSets.createdAt, before)))
      .returning({ id: changeSets.id });
    return deleted.length;
  }

  /**
   * Writes a run's items and marks it planned, once: a second planner (after a crash) writes nothing. `db`:
   * the job's fenced write (HeldJob.fenced), so a planner that lost its lease writes no items.
   */
  async plan(runId: string, items: NewChangeItem[], db: Db = this.db): Promise<void> {
    await db.transaction(async (tx) => {
      const [run] = await tx
        .update(changeSets)
        .set({ planned: true })
        .where(and(eq(changeSets.id, runId), eq(changeSets.planned, false)))
        .returning({ id: changeSets.id });
      if (!run) return;
      for (let start = 0; start < items.length; start += 500) {
        await tx
          .insert(changeSetItems)
          .values(items.slice(start, start + 500).map((item) => ({ ...item, runId })))
          .onConflictDoNothing();
      }
    });
  }

  async items(runId: string): Promise<ChangeItemRow[]> {
    return this.db
      .select()
      .from(changeSetItems)
      .where(eq(changeSetItems.runId, runId))
      .orderBy(asc(changeSetItems.phase), asc(changeSetItems.position));
  }

  /**
   * Takes a pending item for sending, in one statement: false when it is no longer pending (another worker
   * took it) or when the run's lease is no longer `lease` (another worker holds the run now), so no item is
   * sent twice whatever two workers believe.
   */
  /** Takes a pending item for the worker that holds its run (`lease`); its start stamped by the database's clock. */
  async claimItem(id: string, lease: Lease): Promise<boolean> {
    const runHeld = this.db
      .select({ id: changeSets.id })
      .from(changeSets)
      .where(and(eq(changeSets.id, changeSetItems.runId), this.leases.held(lease), eq(changeSets.status, 'running')));
    const rows = await this.db
      .update(changeSetItems)
      .set({ status: 'running', startedAt: sql`now()` })
      .where(and(eq(changeSetItems.id, id), eq(changeSetItems.status, 'pending'), exists(runHeld)))
      .returning({ id: changeSetItems.id });
    return rows.length === 1;
  }

  /**
   * Records an item's outcome; `db`: the job's fenced write (HeldJob.fenced), refused once its lease is lost. A start
   * or an end given is stamped by the database's clock (issue 56): an instance whose clock is off stores no time of its own.
   */
  async updateItem(id: string, changes: Partial<typeof changeSetItems.$inferInsert>, db: Db = this.db): Promise<void> {
    const stamped = {
      ...changes,
      ...(changes.startedAt instanceof Date ? { startedAt: sql`now()` } : {}),
      ...(changes.finishedAt instanceof Date ? { finishedAt: sql`now()` } : {}),
    };
    await db.update(changeSetItems).set(stamped).where(eq(changeSetItems.id, id));
  }

  /**
   * Marks every item still pending as failed with `error` (the run cannot go on). `db`: the job's fenced
   * write (HeldJob.fenced); a keeper ending a run no worker holds writes plainly.
   */
  async failPending(runId: string, error: string, db: Db = this.db): Promise<void> {
    await db
      .update(changeSetItems)
      .set({ status: 'failed', error, finishedAt: sql`now()` })
      .where(and(eq(changeSetItems.runId, runId), eq(changeSetItems.status, 'pending')));
  }

  async totals(runIds: string[]): Promise<ItemTotals[]> {
    if (runIds.length === 0) return [];
    const rows = await this.db
      .select({ runId: changeSetItems.runId, status: changeSetItems.status, count: sql<number>`count(*)::int` })
      .from(changeSetItems)
      .where(inArray(changeSetItems.runId, runIds))
      .groupBy(changeSetItems.runId, changeSetItems.status);
    return rows.map((row) => ({ ...row, count: Number(row.count) }));
  }
}
