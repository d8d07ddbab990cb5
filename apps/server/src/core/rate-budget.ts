import { randomUUID } from 'node:crypto';
import { lt, sql, eq, type SQL } from 'drizzle-orm';
import {
  DEFAULT_BACKGROUND_SHARE,
  DEFAULT_SCHEDULED_SHARE,
  FALLBACK_429_WAIT_MS,
  type Lane,
  type OrgBudget,
  type RateBudgets,
  type RateHeaders,
  type RateSlot,
} from '@ce/platform-client';
import { rateBudgets } from '../db/schema.js';
import type { Db } from './database.js';
import {
  heldAgainst,
  holding,
  inFlight,
  mine,
  ms,
  nowMs,
  probeFree,
  RESET_MARGIN_MS,
  rolled,
  t,
  takenColumns,
  unknown,
  waitUntilReset,
  type TakenColumn,
} from './rate-budget-sql.js';

/** Slots one instance takes in one round trip at most: as many as its calls waiting, up to this. */
export const MAX_BATCH = 8;
/** A probe whose instance died frees the window for another probe after this long. */
const PROBE_TTL_MS = 30_000;
/** While another instance probes a new window, look again this often. */
const PROBE_POLL_MS = 40;
/** Never sleep longer than this without looking: another instance may have learnt something sooner. */
const MAX_SLEEP_MS = 5_000;
/** While what remains is held for the other lane (its share shrinks as the window runs out), look again this often. */
const HELD_POLL_MS = 1_000;
/**
 * A holder's calls are counted in flight this long after its last take at most. A call reaches the platform moments
 * after it is handed out, and is counted in the window it arrives in, answered or not: one handed out longer ago
 * cannot land in a later window. Each holder's count lapses on its own, so one paused or killed with calls out
 * stops weighing on the budget then, however often the others take.
 */
const IN_FLIGHT_TTL_MS = 10_000;

interface Waiter {
  lane: Lane;
  resolve(slot: RateSlot): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort(): void;
}

/**
 * The organizations' budgets in the database, one row each, shared by every instance and worker on it.
 * A take is one statement that hands out slots atomically (a batch for the calls waiting here); an answer
 * corrects the row with the platform's own count. Several processes together stay within the limit.
 */
export class SharedRateBudgets implements RateBudgets {
  private readonly budgets = new Map<string, SharedOrgBudget>();

  private readonly random: () => number;
  private readonly maxSize: number;
  private readonly backgroundShare: number;
  private readonly scheduledShare: number;
  /** This object's name in the counts of calls in flight (each process and thread has its own). */
  private readonly holder = randomUUID();
  private readonly inFlightTtlMs: number;

  constructor(
    private readonly db: Db,
    options: {
      random?: () => number;
      maxSize?: number;
      backgroundShare?: number;
      scheduledShare?: number;
      inFlightTtlMs?: number;
    } = {},
  ) {
    this.inFlightTtlMs = options.inFlightTtlMs ?? IN_FLIGHT_TTL_MS;
    this.random = options.random ?? Math.random;
    this.maxSize = options.maxSize ?? 5_000;
    this.backgroundShare = options.backgroundShare ?? DEFAULT_BACKGROUND_SHARE;
    this.scheduledShare = options.scheduledShare ?? DEFAULT_SCHEDULED_SHARE;
  }

  for(organizationKey: string): OrgBudget {
    let budget = this.budgets.get(organizationKey);
    if (!budget) {
      if (this.budgets.size >= this.maxSize) {
        for (const [key, known] of this.budgets) if (known.idle()) this.budgets.delete(key);
      }
      budget = new SharedOrgBudget(this.db, organizationKey, {
        random: this.random,
        backgroundShare: this.backgroundShare,
        scheduledShare: this.scheduledShare,
        holder: this.holder,
        inFlightTtlMs: this.inFlightTtlMs,
      });
      this.budgets.set(organizationKey, budget);
    }
    return budget;
  }

  /** Retention: rows of organizations nobody called for a day. */
  async prune(): Promise<number> {
    const deleted = await this.db
      .delete(rateBudgets)
      .where(lt(rateBudgets.updatedAt, sql`now() - interval '1 day'`))
      .returning({ key: rateBudgets.key });
    return deleted.length;
  }
}

interface OrgBudgetOptions {
  random: () => number;
  backgroundShare: number;
  scheduledShare: number;
  /** Whose calls in flight this budget counts (its SharedRateBudgets'). */
  holder: string;
  inFlightTtlMs: number;
}

class SharedOrgBudget implements OrgBudget {
  private readonly waiters: Waiter[] = [];
  private taking = false;
  /** Ends the pump's wait at once: an interactive call came, and may take what background could not. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly key: string,
    private readonly options: OrgBudgetOptions,
  ) {}

  /** This holder's count of calls in flight less `count` (calls answered or given back). */
  private fewerInFlight(count: number): { inFlightBy: SQL } {
    const { holder, inFlightTtlMs } = this.options;
    return { inFlightBy: holding(holder, sql`greatest(0, ${mine(holder)} - ${count})`, sql`false`, inFlightTtlMs) };
  }

  idle(): boolean {
    return !this.taking && this.waiters.length === 0;
  }

  /** When the row's window ends, as the last take here read it (this process's clock). */
  private windowEndsAt: number | undefined;

  estimateMs(): number | undefined {
    return this.windowEndsAt === undefined ? undefined : Math.max(0, this.windowEndsAt - Date.now());
  }

  acquire(signal?: AbortSignal, lane: Lane = 'interactive'): Promise<RateSlot> {
    signal?.throwIfAborted();
    return new Promise<RateSlot>((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      if (lane === 'interactive') this.wake?.();
      void this.pump();
    });
  }

  async release(rate: RateHeaders | undefined, slot: RateSlot): Promise<void> {
    if (rate) await this.observe(rate, slot.probe, 1);
    else await this.update({ ...this.fewerInFlight(1), ...(slot.probe ? { probeUntil: sql`null` } : {}) });
  }

  /** An answer under the token's own key (the organization's first call): it counts here as well. */
  async merge(rate: RateHeaders): Promise<void> {
    await this.db.insert(t).values({ key: this.key }).onConflictDoNothing();
    await this.observe(rate, false, 0);
  }

  async exhausted(rate: RateHeaders | undefined, retryAfterMs: number | undefined): Promise<number> {
    const named = rate && Number.isFinite(rate.resetAt) ? sql`to_timestamp(${rate.resetAt / 1000})` : sql`null`;
    const retryAt = retryAfterMs === undefined ? sql`null` : sql`now() + ${ms(retryAfterMs)}`;
    const fallback = sql`now() + ${ms(FALLBACK_429_WAIT_MS + Math.floor(this.options.random() * 1000))}`;
    // The refusal's own word (Reset, Retry-After) is the freshest; without it, the documented minute.
    const resetAt = sql`case
      when greatest(${named}, ${retryAt}) > now() then greatest(${named}, ${retryAt})
      else greatest(${t.resetAt}, ${fallback}) end`;
    const [row] = await this.db
      .insert(t)
      .values({ key: this.key, remaining: 0, resetAt: fallback, callLimit: rate?.limit ?? null })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          ...(rate ? { callLimit: rate.limit } : {}),
          remaining: 0,
          resetAt,
          probeUntil: sql`null`,
          ...this.fewerInFlight(1),
          updatedAt: sql`now()`,
        },
      })
      .returning({ waitMs: waitUntilReset() });
    return row?.waitMs ?? FALLBACK_429_WAIT_MS;
  }

  /** Hands out slots to the calls waiting here, one take (one round trip) per batch. */
  private async pump(): Promise<void> {
    if (this.taking) return;
    this.taking = true;
    try {
      while (this.waiters.length > 0) {
        // Interactive calls first; background ones take when none is waiting here, or when what the
        // interactive ones wait for is background's own share.
        let waitMs = MAX_SLEEP_MS;
        let grantedAny = false;
        const interactiveAsked = this.waiters.some((waiter) => waiter.lane === 'interactive');
        for (const lane of ['interactive', 'background', 'scheduled'] as const) {
          const waiting = this.waiters.filter((waiter) => waiter.lane === lane).length;
          if (waiting === 0) continue;
          const taken = await this.take(Math.min(waiting, MAX_BATCH), lane);
          let { granted, probe } = taken;
          for (const waiter of this.waiters.filter((candidate) => candidate.lane === lane)) {
            if (granted === 0) break;
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.signal?.removeEventListener('abort', waiter.onAbort);
            waiter.resolve({ probe });
            probe = false;
            granted -= 1;
          }
          if (granted > 0) await this.giveBack(granted, probe, lane);
          if (taken.granted > 0) {
            grantedAny = true;
            break;
          }
          waitMs = Math.min(waitMs, taken.waitMs);
        }
        // An interactive call that came during this round is not kept waiting for background's wait.
        const interactiveCame = !interactiveAsked && this.waiters.some((waiter) => waiter.lane === 'interactive');
        if (!grantedAny && !interactiveCame)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, waitMs);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }).finally(() => (this.wake = undefined));
      }
    } catch (error) {
      for (const waiter of this.waiters.splice(0)) {
        waiter.signal?.removeEventListener('abort', waiter.onAbort);
        waiter.reject(error);
      }
    } finally {
      this.taking = false;
    }
  }

  /**
   * One statement: a new window (or a first call) gets one probe if nobody is probing; a known window
   * hands out up to `want` of what remains. Answers what was granted, and how long to wait when nothing was.
   */
  private async take(want: number, lane: Lane): Promise<{ granted: number; probe: boolean; waitMs: number }> {
    const probeUntil = sql`now() + ${ms(PROBE_TTL_MS)}`;
    // In a known window, what remains above the other lane's held share; scheduled work, within its own share.
    const aboveHeld = sql`greatest(0, ${t.remaining} - ${heldAgainst(lane, this.options.backgroundShare)})`;
    const scheduledLeft = sql`greatest(0, ${this.scheduledCapSql()} - ${t.scheduledTaken})`;
    const available =
      lane === 'scheduled'
        ? sql`least(${want}, ${aboveHeld}, ${scheduledLeft})::int`
        : sql`least(${want}, ${aboveHeld})::int`;
    const granted = sql`(case when ${unknown} then (case when ${probeFree} then 1 else 0 end) else ${available} end)`;
    const laneTaken = (column: TakenColumn) =>
      takenColumns(lane).includes(column)
        ? sql`(case when ${unknown} then 0 else ${t[column]} end) + ${granted}`
        : sql`case when ${unknown} then 0 else ${t[column]} end`;
    const [row] = await this.db
      .insert(t)
      .values({
        key: this.key,
        remaining: null,
        resetAt: null,
        probeUntil,
        granted: 1,
        probe: true,
        ...Object.fromEntries(takenColumns(lane).map((column) => [column, 1])),
        inFlightBy: sql`jsonb_build_object(${this.options.holder}::text,
          jsonb_build_object('n', 1, 'until', ${nowMs} + ${this.options.inFlightTtlMs}))`,
        backgroundSeenAt: lane !== 'interactive' ? sql`now()` : null,
      })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          remaining: sql`case when ${unknown} then null else ${t.remaining} - ${available} end`,
          resetAt: sql`case when ${rolled} then null else ${t.resetAt} end`,
          probeUntil: sql`case when ${unknown} and ${probeFree} then ${probeUntil} else ${t.probeUntil} end`,
          granted,
          probe: sql`${unknown} and ${probeFree}`,
          interactiveTaken: laneTaken('interactiveTaken'),
          backgroundTaken: laneTaken('backgroundTaken'),
          scheduledTaken: laneTaken('scheduledTaken'),
          inFlightBy: holding(
            this.options.holder,
            sql`${mine(this.options.holder)} + ${granted}`,
            sql`${granted} > 0`,
            this.options.inFlightTtlMs,
          ),
          ...(lane !== 'interactive' ? { backgroundSeenAt: sql`now()` } : {}),
          updatedAt: sql`now()`,
        },
      })
      .returning({
        granted: t.granted,
        probe: t.probe,
        remaining: t.remaining,
        waitMs: waitUntilReset(),
        scheduledSpent: sql<boolean>`${t.scheduledTaken} >= ${this.scheduledCapSql()}`,
      });
    if (!row) throw new Error('the rate budget take returned no row');
    this.windowEndsAt = row.waitMs === null ? undefined : Date.now() + row.waitMs;
    // Scheduled work that spent its share waits for the window's end (another lane's take wakes nothing here).
    const spent = lane === 'scheduled' && row.granted === 0 && row.scheduledSpent;
    const waitMs =
      row.remaining === null || row.waitMs === null
        ? PROBE_POLL_MS + Math.floor(this.options.random() * PROBE_POLL_MS)
        : Math.min(row.remaining > 0 && !spent ? HELD_POLL_MS : MAX_SLEEP_MS, row.waitMs + RESET_MARGIN_MS);
    return { granted: row.granted, probe: row.probe, waitMs };
  }

  /** The most slots scheduled work takes in the row's window (at least one: a window is never closed to it). */
  private scheduledCapSql(): SQL {
    const share = sql.raw(String(this.options.scheduledShare));
    return sql`greatest(1, floor(${share} * coalesce(${t.callLimit}, 0)))`;
  }

  /** Slots taken for calls that gave up waiting meanwhile: back into the same window. */
  private async giveBack(count: number, probe: boolean, lane: Lane): Promise<void> {
    const untaken = {
      ...this.fewerInFlight(count),
      ...Object.fromEntries(takenColumns(lane).map((column) => [column, sql`greatest(0, ${t[column]} - ${count})`])),
    };
    if (probe) await this.update({ ...untaken, probeUntil: sql`null` });
    else
      await this.update({
        ...untaken,
        remaining: sql`case when ${t.remaining} is null then null else ${t.remaining} + ${count} end`,
      });
  }

  /**
   * An answer's count: within the same window it only lowers what remains (answers lag behind calls in
   * flight); a later window replaces it, less the other calls still in flight (sent before the window
   * turned, the platform counts them in the new one as they arrive). The probe's answer opens the window
   * for everyone. `answered` is 1 when the answer is one of this row's own calls (no longer in flight).
   */
  private async observe(rate: RateHeaders, probe: boolean, answered: 0 | 1): Promise<void> {
    const resetAt = Number.isFinite(rate.resetAt) ? sql`to_timestamp(${rate.resetAt / 1000})` : sql`null`;
    // A later window ends at least a second later (Reset has one-second resolution); anything closer is this one.
    // A window the platform says ends at least a second sooner, and still ahead, is its window, not the row's:
    // the row's came from a wait it guessed (no Reset) or a limit the platform no longer has. (A late answer of
    // a window that has ended names a Reset already past.)
    const newer = sql`(${resetAt} is not null and (${t.resetAt} is null
      or ${resetAt} >= ${t.resetAt} + interval '1 second'
      or (${resetAt} <= ${t.resetAt} - interval '1 second' and ${resetAt} > now())))`;
    const known = sql`(${t.remaining} is not null and not ${rolled})`;
    await this.update({
      callLimit: sql`${rate.limit}`,
      remaining: sql`case
        when ${newer} or ${resetAt} is null and not ${known}
          then greatest(0, ${rate.remaining} - greatest(0, ${inFlight} - ${answered}))
        when ${known} then least(${t.remaining}, ${rate.remaining})
        else ${t.remaining} end`,
      resetAt: sql`case when ${newer} then ${resetAt} else ${t.resetAt} end`,
      interactiveTaken: sql`case when ${newer} then 0 else ${t.interactiveTaken} end`,
      backgroundTaken: sql`case when ${newer} then 0 else ${t.backgroundTaken} end`,
      scheduledTaken: sql`case when ${newer} then 0 else ${t.scheduledTaken} end`,
      ...this.fewerInFlight(answered),
      ...(probe ? { probeUntil: sql`null` } : {}),
    });
  }

  private async update(
    set: Partial<Record<'callLimit' | 'remaining' | 'resetAt' | 'probeUntil' | 'inFlightBy' | TakenColumn, SQL>>,
  ): Promise<void> {
    await this.db
      .update(t)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(t.key, this.key));
  }
}
