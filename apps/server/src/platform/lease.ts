import { and, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';

/**
 * Job leases: a worker claims a job row for a minute and renews the claim every 15 s while it works.
 * A row whose lease lapsed belongs to a worker that died; any worker may claim it again.
 */
export const LEASE_MS = 60_000;
export const HEARTBEAT_MS = 15_000;

/** A table of jobs: reports and bulk runs both have these columns. */
export type LeasedTable = PgTable & {
  id: PgColumn;
  status: PgColumn;
  leaseUntil: PgColumn;
  startedAt: PgColumn;
  createdAt: PgColumn;
};

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Claiming, renewing and finding the orphans of one job table. Statuses: `queued` (waiting for a
 * worker), `running` (held by a lease), then anything else once finished.
 */
export class Leases<T extends LeasedTable> {
  constructor(
    private readonly db: Db,
    private readonly table: T,
    /** More columns a claim sets (for example an attempt counter). */
    private readonly onClaim: () => Record<string, SQL> = () => ({}),
  ) {}

  private lapsed(now: Date): SQL {
    return or(sql`${this.table.leaseUntil} is null`, lt(this.table.leaseUntil, now)) as SQL;
  }

  /**
   * Takes a job for a worker: a queued one, or a running one whose lease lapsed (its worker died). A
   * job delivered twice, or re-queued after a crash, runs once at a time and finishes once.
   */
  async claim(id: string, now: Date, leaseMs = LEASE_MS): Promise<T['$inferSelect'] | undefined> {
    const changes = {
      status: 'running',
      startedAt: sql`coalesce(${this.table.startedAt}, ${at(now)})`,
      leaseUntil: new Date(now.getTime() + leaseMs),
      ...this.onClaim(),
    } as PgUpdateSetSource<T>; // the columns every LeasedTable has, named as its keys
    const rows = await this.db
      .update(this.table)
      .set(changes)
      .where(
        and(
          eq(this.table.id, id),
          or(eq(this.table.status, 'queued'), and(eq(this.table.status, 'running'), this.lapsed(now))),
        ),
      )
      .returning();
    return (rows as T['$inferSelect'][])[0];
  }

  async renew(id: string, until: Date): Promise<void> {
    await this.db
      .update(this.table)
      .set({ leaseUntil: until } as PgUpdateSetSource<T>)
      .where(and(eq(this.table.id, id), eq(this.table.status, 'running')));
  }

  /**
   * Sends back to `queued`, in one statement, the jobs a dead worker left behind (running with a lapsed
   * lease, or every running one with `all`) and answers them: of several instances recovering at the same
   * moment, each job goes to exactly one.
   */
  async requeueOrphans(now: Date, all: boolean): Promise<T['$inferSelect'][]> {
    return this.db
      .update(this.table)
      .set({ status: 'queued', leaseUntil: null } as PgUpdateSetSource<T>)
      .where(and(eq(this.table.status, 'running'), all ? sql`true` : this.lapsed(now)))
      .returning() as Promise<T['$inferSelect'][]>;
  }

  /** Jobs waiting for a worker since before `before`: their queue job may have been lost. */
  async waiting(before: Date): Promise<T['$inferSelect'][]> {
    return this.db
      .select()
      .from(this.table as PgTable)
      .where(and(eq(this.table.status, 'queued'), lt(this.table.createdAt, before))) as Promise<T['$inferSelect'][]>;
  }
}

/** Runs `work` while renewing its lease every 15 s; the renewals stop before this returns. */
export async function whileLeased<T>(renew: (until: Date) => Promise<void>, work: () => Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => {
    renew(new Date(Date.now() + LEASE_MS)).catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}
