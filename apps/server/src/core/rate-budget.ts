import { lt, sql, eq, type SQL } from 'drizzle-orm';
import {
  FALLBACK_429_WAIT_MS,
  type OrgBudget,
  type RateBudgets,
  type RateHeaders,
  type RateSlot,
} from '@ce/platform-client';
import { rateBudgets } from '../db/schema.js';
import type { Db } from './database.js';

/** Slots one instance takes in one round trip at most: as many as its calls waiting, up to this. */
export const MAX_BATCH = 8;
/** Waiting past Reset by this much absorbs clock differences and the header's one-second resolution. */
const RESET_MARGIN_MS = 250;
/** A probe whose instance died frees the window for another probe after this long. */
const PROBE_TTL_MS = 30_000;
/** While another instance probes a new window, look again this often. */
const PROBE_POLL_MS = 40;
/** Never sleep longer than this without looking: another instance may have learnt something sooner. */
const MAX_SLEEP_MS = 5_000;

const t = rateBudgets;
const ms = (value: number) => sql`${value} * interval '1 millisecond'`;
/** The window the row knows has ended: the next call opens a new one, whose budget is unknown. */
const rolled = sql`(${t.resetAt} is not null and now() >= ${t.resetAt} + ${ms(RESET_MARGIN_MS)})`;
const unknown = sql`(${rolled} or ${t.remaining} is null)`;
const probeFree = sql`(${t.probeUntil} is null or ${t.probeUntil} < now())`;

interface Waiter {
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

  constructor(
    private readonly db: Db,
    private readonly random: () => number = Math.random,
    private readonly maxSize = 5_000,
  ) {}

  for(organizationKey: string): OrgBudget {
    let budget = this.budgets.get(organizationKey);
    if (!budget) {
      if (this.budgets.size >= this.maxSize) {
        for (const [key, known] of this.budgets) if (known.idle()) this.budgets.delete(key);
      }
      budget = new SharedOrgBudget(this.db, organizationKey, this.random);
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

class SharedOrgBudget implements OrgBudget {
  private readonly waiters: Waiter[] = [];
  private taking = false;

  constructor(
    private readonly db: Db,
    private readonly key: string,
    private readonly random: () => number,
  ) {}

  idle(): boolean {
    return !this.taking && this.waiters.length === 0;
  }

  acquire(signal?: AbortSignal): Promise<RateSlot> {
    signal?.throwIfAborted();
    return new Promise<RateSlot>((resolve, reject) => {
      const waiter: Waiter = {
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
      void this.pump();
    });
  }

  async release(rate: RateHeaders | undefined, slot: RateSlot): Promise<void> {
    if (rate) await this.observe(rate, slot.probe);
    else if (slot.probe) await this.update({ probeUntil: sql`null` });
  }

  async exhausted(rate: RateHeaders | undefined, retryAfterMs: number | undefined): Promise<number> {
    const named = rate && Number.isFinite(rate.resetAt) ? sql`to_timestamp(${rate.resetAt / 1000})` : sql`null`;
    const retryAt = retryAfterMs === undefined ? sql`null` : sql`now() + ${ms(retryAfterMs)}`;
    const fallback = sql`now() + ${ms(FALLBACK_429_WAIT_MS + Math.floor(this.random() * 1000))}`;
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
        const taken = await this.take(Math.min(this.waiters.length, MAX_BATCH));
        let { granted, probe } = taken;
        while (granted > 0 && this.waiters.length > 0) {
          const waiter = this.waiters.shift() as Waiter;
          waiter.signal?.removeEventListener('abort', waiter.onAbort);
          waiter.resolve({ probe });
          probe = false;
          granted -= 1;
        }
        if (granted > 0) await this.giveBack(granted, probe);
        if (taken.granted === 0) await sleep(taken.waitMs);
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
  private async take(want: number): Promise<{ granted: number; probe: boolean; waitMs: number }> {
    const probeUntil = sql`now() + ${ms(PROBE_TTL_MS)}`;
    const [row] = await this.db
      .insert(t)
      .values({ key: this.key, remaining: null, resetAt: null, probeUntil, granted: 1, probe: true })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          remaining: sql`case when ${unknown} then null else ${t.remaining} - least(${want}, ${t.remaining}) end`,
          resetAt: sql`case when ${rolled} then null else ${t.resetAt} end`,
          probeUntil: sql`case when ${unknown} and ${probeFree} then ${probeUntil} else ${t.probeUntil} end`,
          granted: sql`case when ${unknown} then (case when ${probeFree} then 1 else 0 end)
            else least(${want}, ${t.remaining}) end`,
          probe: sql`${unknown} and ${probeFree}`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ granted: t.granted, probe: t.probe, remaining: t.remaining, waitMs: waitUntilReset() });
    if (!row) throw new Error('the rate budget take returned no row');
    const waitMs =
      row.remaining === null || row.waitMs === null
        ? PROBE_POLL_MS + Math.floor(this.random() * PROBE_POLL_MS)
        : Math.min(MAX_SLEEP_MS, row.waitMs + RESET_MARGIN_MS);
    return { granted: row.granted, probe: row.probe, waitMs };
  }

  /** Slots taken for calls that gave up waiting meanwhile: back into the same window. */
  private async giveBack(count: number, probe: boolean): Promise<void> {
    if (probe) await this.update({ probeUntil: sql`null` });
    else
      await this.update({
        remaining: sql`case when ${t.remaining} is null then null else ${t.remaining} + ${count} end`,
      });
  }

  /**
   * An answer's count: within the same window it only lowers what remains (answers lag behind calls in
   * flight); a later window replaces it. The probe's answer opens the window for everyone.
   */
  private async observe(rate: RateHeaders, probe: boolean): Promise<void> {
    const resetAt = Number.isFinite(rate.resetAt) ? sql`to_timestamp(${rate.resetAt / 1000})` : sql`null`;
    // A later window ends at least a second later (Reset has one-second resolution); anything closer is this one.
    const newer = sql`(${resetAt} is not null and (${t.resetAt} is null or ${resetAt} >= ${t.resetAt} + interval '1 second'))`;
    const known = sql`(${t.remaining} is not null and not ${rolled})`;
    await this.update({
      callLimit: sql`${rate.limit}`,
      remaining: sql`case
        when ${newer} or ${resetAt} is null and not ${known} then ${rate.remaining}
        when ${known} then least(${t.remaining}, ${rate.remaining})
        else ${t.remaining} end`,
      resetAt: sql`case when ${newer} then ${resetAt} else ${t.resetAt} end`,
      ...(probe ? { probeUntil: sql`null` } : {}),
    });
  }

  private async update(set: Partial<Record<'callLimit' | 'remaining' | 'resetAt' | 'probeUntil', SQL>>): Promise<void> {
    await this.db
      .update(t)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(t.key, this.key));
  }
}

/** Milliseconds until the row's window ends (null when it does not know). */
function waitUntilReset() {
  return sql<number | null>`greatest(0, extract(epoch from (${t.resetAt} - now())) * 1000)::int`.mapWith((value) =>
    value === null ? null : Number(value),
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
