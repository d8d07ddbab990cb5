import { setMaxListeners } from 'node:events';
import { and, count, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';

/**
 * Job leases: a worker claims a job row for a minute and renews the claim every 15 s while it works.
 * A row whose lease lapsed belongs to a worker that died; any worker may claim it again. Each claim has
 * an owner and a generation (one more than the last claim's): renewals and the job's writes name the
 * generation, so a worker that lost its lease (paused past it, cut off from the database) finds out at
 * its next renewal or write, stops, and never overwrites what the new holder did. The database's clock
 * (`now()`) judges every lease, when it is claimed, renewed, written under or found lapsed: an instance
 * whose own clock is off neither takes a live lease nor keeps a lapsed one.
 */
export const LEASE_MS = 60_000;

/** A lease's length and how often it is renewed (a quarter of it: three renewals may fail before it lapses). */
export interface LeaseTiming {
  leaseMs: number;
  heartbeatMs: number;
}
export const leaseTiming = (leaseMs = LEASE_MS): LeaseTiming => ({ leaseMs, heartbeatMs: Math.floor(leaseMs / 4) });

/** A table of jobs: reports, change sets and backups all have these columns (and the requester in `userId`). */
export type LeasedTable = PgTable & {
  id: PgColumn;
  status: PgColumn;
  leaseUntil: PgColumn;
  leaseOwner: PgColumn;
  leaseGeneration: PgColumn;
  userId: PgColumn;
  kind: PgColumn;
  startedAt: PgColumn;
  createdAt: PgColumn;
};

/** The database's clock, and a moment `ms` after it. */
const NOW = sql`now()`;
const after = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;

/**
 * A job's end is stamped by the database's clock (issue 56): a `finishedAt` a caller passes says that the job ended
 * now, and is written as `now()`, so an instance whose clock is off stores no end in its own time.
 */
function stamped<T extends PgTable>(changes: PgUpdateSetSource<T>): PgUpdateSetSource<T> {
  if (!('finishedAt' in changes) || !(changes.finishedAt instanceof Date)) return changes;
  // A column set to SQL is a value PgUpdateSetSource takes for any column.
  return { ...changes, finishedAt: NOW } as PgUpdateSetSource<T>;
}

/** What every job that leases its rows needs from the app: where to log, who it is, how long a claim lasts. */
export interface LeasedJobDependencies {
  logger: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
  /** Names this process in the leases it takes. */
  instanceId: string;
  metrics?: { recovered(kind: string, count: number): void };
  /** How long a claim lasts without renewal (JOB_LEASE_MS). */
  leaseMs?: number;
}

/** One claim of a job: the row, the holder and the claim's generation. */
export interface Lease {
  id: string;
  owner: string;
  generation: number;
}

/** The job's lease was taken over by another worker: this one must stop and write nothing more. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`The lease on job ${id} was lost to another worker`);
    this.name = 'LeaseLostError';
  }
}

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

  /** The lease ran out (on the database's clock), or none was taken. */
  private lapsed(): SQL {
    return or(sql`${this.table.leaseUntil} is null`, lt(this.table.leaseUntil, NOW)) as SQL;
  }

  /**
   * Takes a job for a worker: a queued one, or a running one whose lease lapsed (its worker died). A
   * job delivered twice, or re-queued after a crash, runs once at a time and finishes once.
   */
  async claim(
    id: string,
    owner: string,
    leaseMs = LEASE_MS,
  ): Promise<{ row: T['$inferSelect']; lease: Lease } | undefined> {
    const changes = {
      status: 'running',
      startedAt: sql`coalesce(${this.table.startedAt}, ${NOW})`,
      leaseUntil: after(leaseMs),
      leaseOwner: owner,
      leaseGeneration: sql`${this.table.leaseGeneration} + 1`,
      ...this.onClaim(),
    } as PgUpdateSetSource<T>; // the columns every LeasedTable has, named as its keys
    const rows = await this.db
      .update(this.table)
      .set(changes)
      .where(
        and(
          eq(this.table.id, id),
          or(eq(this.table.status, 'queued'), and(eq(this.table.status, 'running'), this.lapsed())),
        ),
      )
      .returning();
    const row = (rows as (T['$inferSelect'] & { leaseGeneration: number })[])[0];
    return row && { row, lease: { id, owner, generation: row.leaseGeneration } };
  }

  /**
   * The lease is still this claim's: nobody claimed the job since, and it has not run out (on the database's
   * clock). The condition of every write the job makes, to its row and to the rows that belong to it.
   */
  held(lease: Lease): SQL {
    return and(
      eq(this.table.id, lease.id),
      eq(this.table.leaseGeneration, lease.generation),
      sql`${this.table.leaseUntil} >= ${NOW}`,
    ) as SQL;
  }

  /** Rejects with LeaseLostError unless the claim is still this one's (on the database's clock). */
  async check(lease: Lease): Promise<void> {
    const rows = await this.db
      .select({ id: this.table.id })
      .from(this.table as PgTable)
      .where(this.held(lease));
    if (rows.length !== 1) throw new LeaseLostError(lease.id);
  }

  /** Extends the claim by `leaseMs` from now; false when it is no longer this claim's or has run out. */
  async renew(lease: Lease, leaseMs = LEASE_MS): Promise<boolean> {
    const rows = await this.db
      .update(this.table)
      .set({ leaseUntil: after(leaseMs) } as PgUpdateSetSource<T>)
      .where(and(this.held(lease), eq(this.table.status, 'running')))
      .returning({ id: this.table.id });
    return rows.length === 1;
  }

  /** A write of the job, made only while the claim is still this one's: false (nothing written) otherwise. */
  write(lease: Lease, changes: Partial<T['$inferInsert']>): Promise<boolean> {
    return this.writeHeld(lease, changes as PgUpdateSetSource<T>);
  }

  private async writeHeld(lease: Lease, changes: PgUpdateSetSource<T>): Promise<boolean> {
    const rows = await this.db
      .update(this.table)
      .set(stamped(changes))
      .where(this.held(lease))
      .returning({ id: this.table.id });
    return rows.length === 1;
  }

  /**
   * A write of the rows that belong to the job (its items, its files, its chunks): `write` runs in one
   * transaction with the job's row locked, only while the claim is still this one's; otherwise nothing is
   * written and this rejects with LeaseLostError. A claim by another worker waits for the transaction to end.
   */
  async fenced<R>(lease: Lease, write: (tx: Db) => Promise<R>): Promise<R> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: this.table.id })
        .from(this.table as PgTable)
        .where(this.held(lease))
        .for('update');
      if (rows.length !== 1) throw new LeaseLostError(lease.id);
      return write(tx);
    });
  }

  /** Lets the claim go (the job ended, or stopped to resume elsewhere), while it is still this one's. */
  release(lease: Lease): Promise<boolean> {
    return this.writeHeld(lease, { leaseUntil: null } as PgUpdateSetSource<T>);
  }

  /** Like `write`, but a lost claim stops the job. */
  async mustWrite(lease: Lease, changes: Partial<T['$inferInsert']>): Promise<void> {
    if (!(await this.write(lease, changes))) throw new LeaseLostError(lease.id);
  }

  /**
   * Sends back to `queued`, in one statement, the jobs a dead worker left behind (running with a lapsed
   * lease, or every running one with `all`) and answers them: of several instances recovering at the same
   * moment, each job goes to exactly one.
   */
  async requeueOrphans(all: boolean): Promise<T['$inferSelect'][]> {
    return this.db
      .update(this.table)
      .set({ status: 'queued', leaseUntil: null } as PgUpdateSetSource<T>)
      .where(and(eq(this.table.status, 'running'), all ? sql`true` : this.lapsed()))
      .returning() as Promise<T['$inferSelect'][]>;
  }

  /** A plain write of a job row (requests and keepers; a job's own writes go through `write`). */
  async update(id: string, changes: Partial<T['$inferInsert']>): Promise<void> {
    await this.db
      .update(this.table)
      .set(stamped(changes as PgUpdateSetSource<T>))
      .where(eq(this.table.id, id));
  }

  /** How many of a user's jobs are waiting or running. */
  /** The user's jobs queued or running, of `kinds` when given. */
  async activeCount(userId: string, kinds?: string[]): Promise<number> {
    const [row] = await this.db
      .select({ value: count() })
      .from(this.table as PgTable)
      .where(
        and(
          eq(this.table.userId, userId),
          inArray(this.table.status, ['queued', 'running']),
          kinds ? inArray(this.table.kind, kinds) : undefined,
        ),
      );
    return Number(row?.value ?? 0);
  }

  /** Jobs waiting for a worker since before `before`: their queue job may have been lost. */
  async waiting(before: Date): Promise<T['$inferSelect'][]> {
    return this.db
      .select()
      .from(this.table as PgTable)
      .where(and(eq(this.table.status, 'queued'), lt(this.table.createdAt, before))) as Promise<T['$inferSelect'][]>;
  }

  /**
   * The jobs that lost their worker (a lapsed lease on the database's clock, taken back in one statement so
   * two instances never both send one) or their queue job (queued for longer than `lostJobGraceMs(leaseMs)`
   * before `now`, its queue job gone or finished). `all`: every unfinished job is one (the embedded database
   * belongs to this one process).
   */
  async orphans(
    now: Date,
    all: boolean,
    jobState: (jobId: string, row: T['$inferSelect']) => Promise<string | null>,
    leaseMs = LEASE_MS,
  ): Promise<(T['$inferSelect'] & { id: string; jobId: string | null })[]> {
    type Row = T['$inferSelect'] & { id: string; jobId: string | null };
    const candidates = (await this.requeueOrphans(all)) as Row[];
    const waitingSince = all ? now : new Date(now.getTime() - lostJobGraceMs(leaseMs));
    for (const row of (await this.waiting(waitingSince)) as Row[]) {
      if (candidates.some((candidate) => candidate.id === row.id)) continue;
      const state = !all && row.jobId ? await jobState(row.jobId, row) : null;
      if (state === null || LOST_JOB_STATES.has(state)) candidates.push(row);
    }
    return candidates;
  }
}

/**
 * A queued job whose queue job is gone is sent again once it has waited this long: two leases (two minutes with
 * the default JOB_LEASE_MS), far longer than a live worker takes between taking a queue job and claiming its row.
 */
export const lostJobGraceMs = (leaseMs: number): number => 2 * leaseMs;
/**
 * The queue job's states that leave a queued row without a worker: ended, or taken (`active`) by a worker
 * that never claimed the row. A live worker claims the row the moment it takes the job, so a row still queued
 * minutes later lost that worker; pg-boss would hand the job out again only when it expires (15 minutes).
 * Sending it again is safe: one claim wins.
 */
const LOST_JOB_STATES = new Set(['completed', 'cancelled', 'failed', 'active']);

/**
 * Runs `work` while renewing its lease every 15 s; the renewals stop before this returns. When a renewal
 * finds the lease taken, or renewals fail until the lease has run out, `work`'s signal aborts (platform
 * calls in flight are cancelled) and this rejects with LeaseLostError.
 */
export async function whileLeased<T>(
  lease: Lease,
  renew: (lease: Lease) => Promise<boolean>,
  work: (signal: AbortSignal) => Promise<T>,
  timing: LeaseTiming = leaseTiming(),
): Promise<T> {
  const controller = new AbortController();
  // Every platform call of the job listens to this one signal; a job makes many at once.
  setMaxListeners(256, controller.signal);
  let heldUntil = Date.now() + timing.leaseMs;
  const lost = () => controller.abort(new LeaseLostError(lease.id));
  const heartbeat = setInterval(() => {
    // Only for the case the database does not answer: how long the claim surely lasts (the database judges it).
    const until = Date.now() + timing.leaseMs;
    renew(lease).then(
      (held) => {
        if (held) heldUntil = until;
        else lost();
      },
      () => {
        // The database did not answer: the lease still holds until it runs out.
        if (Date.now() >= heldUntil) lost();
      },
    );
  }, timing.heartbeatMs);
  try {
    const result = await work(controller.signal);
    controller.signal.throwIfAborted();
    return result;
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}
