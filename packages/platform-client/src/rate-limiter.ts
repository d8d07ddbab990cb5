/**
 * The platform allows a number of calls per organization per minute, shared by every token and
 * account group of the organization. It reports the budget on every answer:
 * X-Organization-Rate-Limit-Limit (calls per window), -Remaining, and -Reset (epoch seconds of the
 * next rollover). A window starts with the first call after the previous one rolled over.
 *
 * A budget per organization (`OrgBudget`) paces every call: a call takes a slot before it is sent and
 * gives it back with what the answer said. The budget is never assumed: a new window is probed with one
 * call, whose answer tells how many remain; answers only ever lower the estimate within a window. Here,
 * the budget of one process (`OrgRateLimiter`, the embedded default); `RateBudgets` lets several
 * processes share one (the server keeps it in PostgreSQL).
 */
import { FALLBACK_429_WAIT_MS, type RateHeaders } from './rate-headers.js';

export interface RateLimitSnapshot {
  limit: number | undefined;
  remaining: number | undefined;
  resetAt: number | undefined;
  inFlight: number;
}

/** A slot taken from a budget; `probe` when it is the one call that opens a window whose budget is unknown. */
export interface RateSlot {
  readonly probe: boolean;
}

/**
 * Who waits on a call: `interactive` when a person waits on a page (the default), `background` for jobs a person
 * asked for, `scheduled` for the work nobody waits on (Account Watch's runs). Interactive calls go first; background
 * keeps its share of each window (`backgroundShare`). Scheduled calls are background calls (they count in its share)
 * that spend at most `scheduledShare` of each window, so that the customer's own integrations and the work people
 * asked for keep the rest.
 */
export type Lane = 'interactive' | 'background' | 'scheduled';

/** The lane whose share a call counts in: scheduled work is background work. */
export const shareOf = (lane: Lane): 'interactive' | 'background' =>
  lane === 'interactive' ? 'interactive' : 'background';

/** The share of each window kept for background calls unless the default is configured otherwise. */
export const DEFAULT_BACKGROUND_SHARE = 0.5;
/** The most of each window scheduled calls spend unless configured otherwise (PLATFORM_SCHEDULED_SHARE). */
export const DEFAULT_SCHEDULED_SHARE = 0.5;

/** The most slots scheduled calls take in a window of `limit` calls. */
export const scheduledCap = (share: number, limit: number): number => Math.max(1, Math.floor(share * limit));
/** The platform's window: its limit is per minute. */
export const WINDOW_MS = 60_000;

/**
 * A lane gives up what it still holds this long before the window ends, so that the other lane, which looks
 * again at least every second while it waits on a held share, spends it before the window turns.
 */
export const HELD_UNTIL_END_MS = 2_000;

/**
 * Slots a lane still holds for itself in the current window: its share of the limit pro rata to the time the
 * window has left (until `HELD_UNTIL_END_MS` before its end), never more than what it has not taken of its share.
 * What it took earlier in the window was the earlier time's: a person who checked a token every 2 s still finds
 * a slot late in a window that jobs saturate. Another lane takes only what is left above it, so each lane gets its
 * share when it wants it, and nothing is left unspent when the window ends.
 */
export function heldFor(share: number, limit: number, taken: number, msLeft: number): number {
  const left = Math.min(1, Math.max(0, (msLeft - HELD_UNTIL_END_MS) / (WINDOW_MS - HELD_UNTIL_END_MS)));
  return Math.max(0, Math.min(Math.ceil(share * limit * left), Math.ceil(share * limit) - taken));
}

/**
 * Background holds its share only while it is about: a background call asked within this long (a job between
 * two calls is still about). Interactive holds its share always, so a person who comes finds a slot.
 */
export const BACKGROUND_PRESENT_MS = 6_000;

/** The share of the window the other lane holds. */
export const otherShare = (lane: Lane, backgroundShare: number): number =>
  shareOf(lane) === 'interactive' ? backgroundShare : 1 - backgroundShare;

/** One organization's budget, wherever it is kept. */
export interface OrgBudget {
  /** Waits for a slot in the budget and takes it; interactive calls go before background ones. */
  acquire(signal?: AbortSignal, lane?: Lane): Promise<RateSlot>;
  /**
   * What an answer under another key of the same organization said (the token's own first call): the
   * platform counts per organization, so this budget counts it too.
   */
  merge(rate: RateHeaders): void | Promise<void>;
  /** Gives the slot back with what the answer said about the budget (nothing, when there was no answer). */
  release(rate: RateHeaders | undefined, slot: RateSlot): void | Promise<void>;
  /** A 429: the budget is spent; answers how long to wait (ms) before sending again. */
  exhausted(rate: RateHeaders | undefined, retryAfterMs: number | undefined, slot: RateSlot): number | Promise<number>;
  /** About how long from now until the budget has room again (its window's end), when it knows. */
  estimateMs?(): number | undefined;
}

/** The budgets of every organization, by key (`org:<id>`, or `token:<hash>` until the organization is known). */
export interface RateBudgets {
  for(organizationKey: string): OrgBudget;
}

const PROBE: RateSlot = { probe: true };
const COUNTED: RateSlot = { probe: false };

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Waiting past Reset by this much absorbs clock differences and the header's one-second resolution. */
const RESET_MARGIN_MS = 250;
/** While a background call waits only for the interactive share to shrink, look again this often. */
const HELD_POLL_MS = 1_000;

export class OrgRateLimiter implements OrgBudget {
  private limit: number | undefined;
  private remaining: number | undefined;
  private resetAt: number | undefined;
  private inFlight = 0;
  /** Slots each lane took in the current window (a scheduled call counts in background's too). */
  private taken: Record<Lane, number> = { interactive: 0, background: 0, scheduled: 0 };
  private interactiveWaiting = 0;
  private backgroundSeenAt = Number.NEGATIVE_INFINITY;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly clock: Clock = realClock,
    private readonly random: () => number = Math.random,
    private readonly backgroundShare = DEFAULT_BACKGROUND_SHARE,
    private readonly scheduledShare = DEFAULT_SCHEDULED_SHARE,
  ) {}

  snapshot(): RateLimitSnapshot {
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt, inFlight: this.inFlight };
  }

  /** Waits for a slot in the organization's budget and reserves it; background yields to interactive calls. */
  async acquire(signal?: AbortSignal, lane: Lane = 'interactive'): Promise<RateSlot> {
    if (lane === 'interactive') this.interactiveWaiting += 1;
    try {
      for (;;) {
        signal?.throwIfAborted();
        this.rollOver();
        if (lane !== 'interactive') this.backgroundSeenAt = this.clock.now();
        // A background call lets a waiting interactive one go first, unless that one waits for background's share.
        const yields = lane !== 'interactive' && this.interactiveWaiting > 0 && this.interactiveMayTake();
        if (
          lane === 'scheduled' &&
          this.limit !== undefined &&
          this.resetAt !== undefined &&
          this.remaining !== undefined &&
          this.taken.scheduled >= scheduledCap(this.scheduledShare, this.limit)
        ) {
          // Scheduled work spent its share of this window: it waits for the next.
          await this.clock.sleep(Math.max(0, this.resetAt - this.clock.now()) + RESET_MARGIN_MS, signal);
          continue;
        }
        if (this.remaining === undefined) {
          // Budget unknown (first call, or first call of a new window): one probe call at a time.
          if (this.inFlight === 0 && !yields) return this.reserve(PROBE, lane);
        } else if (this.remaining > 0 && this.resetAt !== undefined && this.remaining <= this.heldAgainst(lane)) {
          // What is left is the other lane's share: it shrinks as the window runs out.
          const untilReset = Math.max(0, this.resetAt - this.clock.now()) + RESET_MARGIN_MS;
          await this.clock.sleep(Math.min(HELD_POLL_MS, untilReset), signal);
          continue;
        } else if (this.remaining > 0) {
          if (!yields) {
            this.remaining -= 1;
            return this.reserve(COUNTED, lane);
          }
        } else if (this.resetAt !== undefined) {
          await this.clock.sleep(Math.max(0, this.resetAt - this.clock.now()) + RESET_MARGIN_MS, signal);
          continue;
        }
        await this.waitForChange(signal);
      }
    } finally {
      if (lane === 'interactive') {
        this.interactiveWaiting -= 1;
        this.notify();
      }
    }
  }

  private interactiveMayTake(): boolean {
    if (this.remaining === undefined) return this.inFlight === 0;
    return this.remaining > this.heldAgainst('interactive');
  }

  /** Slots the other lane still holds in this window. */
  private heldAgainst(lane: Lane): number {
    if (this.limit === undefined || this.resetAt === undefined) return 0;
    const other = shareOf(lane) === 'interactive' ? 'background' : 'interactive';
    if (other === 'background' && this.clock.now() - this.backgroundSeenAt > BACKGROUND_PRESENT_MS) return 0;
    const msLeft = this.resetAt - this.clock.now();
    return heldFor(otherShare(lane, this.backgroundShare), this.limit, this.taken[other], msLeft);
  }

  merge(rate: RateHeaders): void {
    this.observe(rate);
    this.notify();
  }

  estimateMs(): number | undefined {
    return this.resetAt === undefined ? undefined : Math.max(0, this.resetAt - this.clock.now());
  }

  /** Records what an answer said about the budget and frees the reservation. */
  release(rate: RateHeaders | undefined): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (rate) this.observe(rate);
    this.notify();
  }

  /**
   * A 429: the budget is spent until Reset (or a minute plus jitter when the answer did not say), and never
   * sooner than the refusal's Retry-After.
   */
  exhausted(rate: RateHeaders | undefined, retryAfter?: number): number {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const now = this.clock.now();
    if (rate) this.limit = rate.limit;
    this.remaining = 0;
    // The refusal names the current window's end: the freshest word, also when it is sooner than a guess
    // made earlier (a 429 without headers) or than a window the platform has since cut short.
    const named = rate && Number.isFinite(rate.resetAt) && rate.resetAt > now ? rate.resetAt : undefined;
    const retryAt = retryAfter === undefined ? undefined : now + retryAfter;
    if (named !== undefined || retryAt !== undefined) this.resetAt = Math.max(named ?? 0, retryAt ?? 0);
    else this.resetAt = Math.max(this.resetAt ?? 0, now + FALLBACK_429_WAIT_MS + Math.floor(this.random() * 1000));
    this.notify();
    return this.resetAt - now;
  }

  private reserve(slot: RateSlot, lane: Lane): RateSlot {
    this.inFlight += 1;
    this.taken[shareOf(lane)] += 1;
    if (lane === 'scheduled') this.taken.scheduled += 1;
    return slot;
  }

  private observe(rate: RateHeaders): void {
    this.limit = rate.limit;
    const resetAt = Number.isFinite(rate.resetAt) ? rate.resetAt : undefined;
    const sameWindow = resetAt !== undefined && this.resetAt !== undefined && Math.abs(resetAt - this.resetAt) < 1000;
    if (sameWindow && this.remaining !== undefined) {
      // Our estimate already excludes calls still in flight; the answer may not count them yet.
      this.remaining = Math.min(this.remaining, rate.remaining);
    } else if (resetAt === undefined || resetAt > (this.resetAt ?? 0)) {
      // A newer window: the platform's count covers the calls it has seen; ours in flight come on top.
      this.resetAt = resetAt;
      this.remaining = Math.max(0, rate.remaining - Math.max(0, this.inFlight));
      this.taken = { interactive: 0, background: 0, scheduled: 0 };
    }
  }

  private rollOver(): void {
    if (this.resetAt !== undefined && this.clock.now() >= this.resetAt + RESET_MARGIN_MS) {
      // A new window opens with the first call after the last one rolled over; other processes may have
      // opened it already and spent part of it. One probe call finds out how much is left.
      this.resetAt = undefined;
      this.remaining = undefined;
      this.taken = { interactive: 0, background: 0, scheduled: 0 };
    }
  }

  private waitForChange(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters.delete(done);
        reject(signal?.reason);
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Nothing in flight or waiting, and the window it knew has rolled over: forgetting it loses nothing. */
  isIdle(): boolean {
    return (
      this.inFlight === 0 && this.waiters.size === 0 && (this.resetAt === undefined || this.clock.now() >= this.resetAt)
    );
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * The process's limiters, one per organization key (or per token until the organization is known).
 * Bounded: past `maxSize` keys, idle limiters are forgotten, oldest first, so tokens pasted once do not
 * accumulate for the life of the process.
 */
export class RateLimiterRegistry implements RateBudgets {
  private readonly limiters = new Map<string, OrgRateLimiter>();

  constructor(
    private readonly clock: Clock = realClock,
    private readonly random: () => number = Math.random,
    private readonly maxSize = 5_000,
    private readonly backgroundShare = DEFAULT_BACKGROUND_SHARE,
    private readonly scheduledShare = DEFAULT_SCHEDULED_SHARE,
  ) {}

  get size(): number {
    return this.limiters.size;
  }

  for(organizationKey: string): OrgRateLimiter {
    let limiter = this.limiters.get(organizationKey);
    if (!limiter) {
      if (this.limiters.size >= this.maxSize) this.forgetIdle();
      limiter = new OrgRateLimiter(this.clock, this.random, this.backgroundShare, this.scheduledShare);
      this.limiters.set(organizationKey, limiter);
    }
    return limiter;
  }

  private forgetIdle(): void {
    for (const [key, limiter] of this.limiters) {
      if (this.limiters.size < this.maxSize) return;
      if (limiter.isIdle()) this.limiters.delete(key);
    }
  }
}
