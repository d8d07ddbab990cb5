import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, lt, sql } from 'drizzle-orm';
import { exclusiveLocks } from '../db/schema.js';
import type { Db } from './database.js';

/**
 * Named locks that hold across every instance on the database: taken by one statement (insert, or take over
 * an expired lock), released by their holder only; a lock whose holder died frees itself when it expires.
 */
export class ExclusiveLocks {
  constructor(private readonly db: Db) {}

  /** Takes `name` for `holder` for `ttlMs`; false when someone else holds it. */
  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const expiresAt = sql`now() + ${ttlMs} * interval '1 millisecond'`;
    const [row] = await this.db
      .insert(exclusiveLocks)
      .values({ name, holder, expiresAt })
      .onConflictDoUpdate({
        target: exclusiveLocks.name,
        set: { holder, expiresAt },
        setWhere: sql`${exclusiveLocks.expiresAt} <= now()`,
      })
      .returning({ name: exclusiveLocks.name });
    return row !== undefined;
  }

  /**
   * Runs `work` while holding `name`, waiting (every 100 ms, up to `waitMs`) while another holds it: a
   * find-or-create made once across every instance. The lock lasts `ttlMs` at most, should this process die.
   */
  async exclusively<T>(
    name: string,
    work: () => Promise<T>,
    options: { signal?: AbortSignal; ttlMs?: number; waitMs?: number } = {},
  ): Promise<T> {
    const holder = randomUUID();
    const waitUntil = Date.now() + (options.waitMs ?? 60_000);
    while (!(await this.acquire(name, holder, options.ttlMs ?? 60_000))) {
      if (Date.now() > waitUntil) throw new Error(`"${name}" stayed locked by another worker`);
      await sleep(100, undefined, { signal: options.signal });
    }
    try {
      return await work();
    } finally {
      await this.release(name, holder);
    }
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.delete(exclusiveLocks).where(and(eq(exclusiveLocks.name, name), eq(exclusiveLocks.holder, holder)));
  }

  /** Retention: locks whose holder never released them. */
  async prune(): Promise<number> {
    const deleted = await this.db
      .delete(exclusiveLocks)
      .where(lt(exclusiveLocks.expiresAt, sql`now()`))
      .returning({ name: exclusiveLocks.name });
    return deleted.length;
  }
}
