import { and, desc, eq, gt, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../core/database.js';
import { Leases, type Lease } from '../../core/lease.js';
import { emailOf } from '../../core/requester.js';
import { backups, reportRequests, sealedTokens, users, watchRuns, watches, watchWaivers } from '../../db/schema.js';
import type { WaiverInForce } from './watch-findings.js';

export type WatchRunRow = typeof watchRuns.$inferSelect;
type WatchRow = typeof watches.$inferSelect;

/** What the turn's statement answers (either driver: node-postgres and PGlite both answer `rows`). */
const turnRowsSchema = z.object({ rows: z.array(z.object({ id: z.string(), status: z.string() })) });

/** The runs of one organization's watches working now, and those queued in the order they take their turn. */
interface Turns {
  running: number;
  queued: string[];
}

/**
 * One organization's runs in turn (issue 55): the queued runs ordered so that owners take turns, each owner's
 * runs working or waiting counted in order (a second run of one owner comes after the first run of every other),
 * then the owner whose last run began longest ago (or never) first, then the oldest run.
 */
async function turnsOf(db: Db, organizationId: string): Promise<Turns> {
  const result = await db.execute(sql`
    with live as (
      select id, user_id, status, created_at from ${watchRuns}
      where organization_id = ${organizationId} and status in ('queued', 'running')
    ), owners as (
      select live.user_id, count(*) filter (where live.status = 'running') as running,
        (select max(started_at) from ${watchRuns} ran
          where ran.organization_id = ${organizationId} and ran.user_id = live.user_id) as last_start
      from live group by live.user_id
    )
    select live.id, live.status,
      owners.running + row_number() over (partition by live.user_id, live.status order by live.created_at, live.id)
        as turn,
      owners.last_start, live.created_at
    from live join owners on owners.user_id = live.user_id
    order by live.status = 'queued', turn, owners.last_start nulls first, live.created_at, live.id
  `);
  const { rows } = turnRowsSchema.parse(result);
  return {
    running: rows.filter((row) => row.status === 'running').length,
    queued: rows.filter((row) => row.status === 'queued').map((row) => row.id),
  };
}

/**
 * The leases of watch runs, where claiming a queued run is also its turn: at most `perOrganization` runs of one
 * organization's watches work at once, whichever instances hold them, and the next is the owners' turn's
 * (`turnsOf`). The count, the turn and the claim are one transaction under the organization's lock. A run taken
 * up again (its lease lapsed) was counted already and is claimed as any leased job is.
 */
class TurnTakingLeases extends Leases<typeof watchRuns> {
  constructor(
    private readonly database: Db,
    private readonly perOrganization: number,
  ) {
    super(database, watchRuns);
  }

  override async claim(
    id: string,
    owner: string,
    leaseMs?: number,
  ): Promise<{ row: WatchRunRow; lease: Lease } | undefined> {
    return this.database.transaction(async (tx) => {
      const [found] = await tx
        .select({ status: watchRuns.status, organizationId: watchRuns.organizationId })
        .from(watchRuns)
        .where(eq(watchRuns.id, id));
      if (!found) return undefined;
      if (found.status === 'queued') {
        await lockOrganization(tx, found.organizationId);
        const turns = await turnsOf(tx, found.organizationId);
        const free = Math.max(0, this.perOrganization - turns.running);
        if (!turns.queued.slice(0, free).includes(id)) return undefined;
      }
      return new Leases(tx, watchRuns).claim(id, owner, leaseMs);
    });
  }

  /**
   * The queued runs that should hold a queue job by now: those whose organization's turn has come. The others wait
   * for their turn and are sent when it comes (a run of the organization ends, or the minute's dispatch), so 10,000
   * runs made at once are not all sent again every minute as lost, each to be refused its turn.
   */
  override async waiting(before: Date): Promise<WatchRunRow[]> {
    const organizations = await this.database
      .selectDistinct({ organizationId: watchRuns.organizationId })
      .from(watchRuns)
      .where(and(eq(watchRuns.status, 'queued'), lt(watchRuns.createdAt, before)));
    const inTurn: string[] = [];
    for (const { organizationId } of organizations) {
      const turns = await turnsOf(this.database, organizationId);
      inTurn.push(...turns.queued.slice(0, Math.max(0, this.perOrganization - turns.running)));
    }
    if (inTurn.length === 0) return [];
    return this.database
      .select()
      .from(watchRuns)
      .where(and(inArray(watchRuns.id, inTurn), eq(watchRuns.status, 'queued'), lt(watchRuns.createdAt, before)));
  }
}

const lockOrganization = (tx: Db, organizationId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`watch-runs:${organizationId}`}, 0))`);

/** SQL for the runs of watches: scheduling each due run once, the run as a leased job, and its history. */
export class WatchRunsRepository {
  readonly leases: Leases<typeof watchRuns>;

  constructor(
    private readonly db: Db,
    /** Runs of one organization's watches working at once (WATCH_RUNS_PER_ORGANIZATION). */
    private readonly perOrganization = 3,
  ) {
    this.leases = new TurnTakingLeases(db, perOrganization);
  }

  /** The queued runs of an organization whose turn it is now (as many as it has runs free): what to send. */
  async inTurn(organizationId: string): Promise<string[]> {
    const turns = await turnsOf(this.db, organizationId);
    return turns.queued.slice(0, Math.max(0, this.perOrganization - turns.running));
  }

  /** The organizations with runs waiting for their turn. */
  async organizationsWaiting(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ organizationId: watchRuns.organizationId })
      .from(watchRuns)
      .where(eq(watchRuns.status, 'queued'));
    return rows.map((row) => row.organizationId);
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

  /** When "Run now" last made a run of the watch (its due time, on the app's clock), or null. */
  async lastAskedNow(watchId: string): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: watchRuns.dueAt })
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watchId), eq(watchRuns.trigger, 'now')))
      .orderBy(desc(watchRuns.dueAt))
      .limit(1);
    return row?.at ?? null;
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

  /** Whether the watch has a run done that was due in [from, to): a month it watched. */
  async doneWithin(watchId: string, from: Date, to: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ id: watchRuns.id })
      .from(watchRuns)
      .where(
        and(
          eq(watchRuns.watchId, watchId),
          eq(watchRuns.status, 'done'),
          gte(watchRuns.dueAt, from),
          lt(watchRuns.dueAt, to),
        ),
      )
      .limit(1);
    return row !== undefined;
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

  /** The waivers of an organization in force at `now`, with who made them (a run tells the owner of others'). */
  activeWaivers(organizationId: string, now: Date): Promise<WaiverInForce[]> {
    return this.db
      .select({
        id: watchWaivers.id,
        checkId: watchWaivers.checkId,
        itemKey: watchWaivers.itemKey,
        itemName: watchWaivers.itemName,
        reason: watchWaivers.reason,
        expiresAt: watchWaivers.expiresAt,
        createdBy: watchWaivers.createdBy,
        createdByEmail: users.email,
      })
      .from(watchWaivers)
      .leftJoin(users, eq(users.id, watchWaivers.createdBy))
      .where(and(eq(watchWaivers.organizationId, organizationId), gt(watchWaivers.expiresAt, now)))
      .orderBy(watchWaivers.createdAt);
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
          finishedAt: sql`now()`,
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
            finishedAt: sql`now()`,
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

  /** A run's message ended after the run did (the retries sent it, or gave it up). */
  async deliveryEnded(id: string, status: 'sent' | 'failed', error: string | null): Promise<void> {
    await this.db
      .update(watchRuns)
      .set({ deliveryStatus: status, deliveryError: error })
      .where(and(eq(watchRuns.id, id), eq(watchRuns.deliveryStatus, 'pending')));
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
