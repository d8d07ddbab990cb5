import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import { publicThrottle } from '../db/schema.js';
import type { Db } from './database.js';
import type { ExclusiveLocks } from './exclusive-locks.js';
import type { SharedRateBudgets } from './rate-budget.js';
import type { BudgetWaits } from './budget-waits.js';
import { periodicJob, type Job } from './jobs.js';

/**
 * Counts requests per key and window in the database with one statement (an upsert that starts a new
 * window when the last one is over), so every instance on the same database draws on one count.
 */
export class SharedThrottle {
  constructor(private readonly db: Db) {}

  async increment(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const table = publicThrottle;
    const over = sql`${table.resetAt} <= now()`;
    const nextReset = sql`now() + ${windowMs} * interval '1 millisecond'`;
    const [row] = await this.db
      .insert(table)
      .values({ key, count: 1, resetAt: nextReset })
      .onConflictDoUpdate({
        target: table.key,
        set: {
          count: sql`case when ${over} then 1 else ${table.count} + 1 end`,
          resetAt: sql`case when ${over} then ${nextReset} else ${table.resetAt} end`,
        },
      })
      .returning({
        count: table.count,
        ttl: sql<number>`greatest(0, extract(epoch from (${table.resetAt} - now())) * 1000)::int`.mapWith(Number),
      });
    if (!row) throw new Error('the throttle upsert returned no row');
    return { current: row.count, ttl: row.ttl };
  }

  /** Windows that are over: their count no longer matters. */
  async prune(): Promise<number> {
    const deleted = await this.db
      .delete(publicThrottle)
      .where(lt(publicThrottle.resetAt, sql`now()`))
      .returning({ key: publicThrottle.key });
    return deleted.length;
  }

  /** A store class for @fastify/rate-limit that counts here, in windows of `windowMs`. */
  storeClass(windowMs: number): FastifyRateLimitStoreCtor {
    const increment = (key: string) => this.increment(key, windowMs);
    return class SharedThrottleStore implements FastifyRateLimitStore {
      incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1]): void {
        increment(key).then(
          (result) => callback(null, result),
          (error: Error) => callback(error),
        );
      }
      child(): FastifyRateLimitStore {
        return new SharedThrottleStore();
      }
    };
  }
}

/** Every hour, throttle windows that are over and locks whose holder died are deleted. */
export function sharedStateJobs(
  state: { throttle: SharedThrottle; locks: ExclusiveLocks; budgets?: SharedRateBudgets; waits: BudgetWaits },
  logger: { info(object: object, message: string): void },
): Job[] {
  return [
    periodicJob('shared-state.prune', '17 * * * *', async () => {
      const [windows, expired, budgets, waits] = [
        await state.throttle.prune(),
        await state.locks.prune(),
        (await state.budgets?.prune()) ?? 0,
        await state.waits.prune(),
      ];
      if (windows + expired + budgets + waits > 0)
        logger.info(
          { windows, locks: expired, budgets, waits },
          'ended throttle windows, expired locks, idle budgets and stale budget waits deleted',
        );
    }),
  ];
}
