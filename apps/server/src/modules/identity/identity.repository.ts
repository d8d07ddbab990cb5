import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { authChallenges, passwordResetCodes, securityEvents, signInThrottle } from '../../db/schema.js';
import type { ThrottlePolicy } from './sign-in-throttle.js';

export type SecurityEventType =
  | 'sign_in_failed'
  | 'sign_in_locked'
  | 'sign_in_refused_locked'
  | 'password_changed'
  | 'password_change_failed'
  | 'password_reset_requested'
  | 'password_reset_throttled'
  | 'password_reset_completed'
  | 'password_reset_failed'
  | 'password_reset_locked'
  | 'new_password_set'
  | 'sso_sign_in'
  | 'sso_refused'
  | 'api_token_created'
  | 'api_token_revoked'
  | 'api_token_refused';

/** The answer to a claimed attempt: the attempt's number in the window, or the lock that refused it. */
export type AttemptClaim =
  { allowed: true; count: number; lockedUntil: Date | null } | { allowed: false; lockedUntil: Date };

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Refusals a caller can repeat at will (each written before anything is done): counted per address and cause. */
const COUNTED_EVENTS: ReadonlySet<SecurityEventType> = new Set([
  'api_token_refused',
  'sign_in_refused_locked',
  'password_reset_throttled',
]);
/** The window a counted event's row gathers its repeats in. */
const REPEAT_WINDOW_MS = 15 * 60_000;

/** SQL for the identity flows: challenges, reset codes, throttling, security events. */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  async insertChallenge(row: typeof authChallenges.$inferInsert): Promise<void> {
    await this.db.delete(authChallenges).where(lt(authChallenges.expiresAt, new Date()));
    await this.db.insert(authChallenges).values(row);
  }

  async takeChallenge(idHash: string): Promise<typeof authChallenges.$inferSelect | undefined> {
    const [row] = await this.db.delete(authChallenges).where(eq(authChallenges.idHash, idHash)).returning();
    return row;
  }

  async insertResetCode(userId: string, codeHash: string, expiresAt: Date): Promise<void> {
    // A new code replaces any earlier one.
    await this.db.transaction(async (tx) => {
      await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
      await tx.insert(passwordResetCodes).values({ userId, codeHash, expiresAt });
    });
  }

  /**
   * Takes one attempt at the account's live code before it is checked, in one statement: of any number
   * of attempts sent at once, at most `maxAttempts` ever get a code to compare against.
   */
  async claimCodeAttempt(userId: string, now: Date, maxAttempts: number) {
    const [row] = await this.db
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.usedAt),
          gt(passwordResetCodes.expiresAt, now),
          lt(passwordResetCodes.attempts, maxAttempts),
        ),
      )
      .returning({
        id: passwordResetCodes.id,
        codeHash: passwordResetCodes.codeHash,
        attempts: passwordResetCodes.attempts,
      });
    return row;
  }

  /** Whether the account has a live code whose attempts are used up (as opposed to none, used or expired). */
  async codeExhausted(userId: string, now: Date, maxAttempts: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: passwordResetCodes.id })
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.usedAt),
          gt(passwordResetCodes.expiresAt, now),
          sql`${passwordResetCodes.attempts} >= ${maxAttempts}`,
        ),
      );
    return row !== undefined;
  }

  async markCodeUsed(id: string, when: Date): Promise<boolean> {
    const updated = await this.db
      .update(passwordResetCodes)
      .set({ usedAt: when })
      .where(and(eq(passwordResetCodes.id, id), isNull(passwordResetCodes.usedAt)))
      .returning({ id: passwordResetCodes.id });
    return updated.length === 1;
  }

  /**
   * Counts one attempt under `key` before it is made, atomically: the count restarts after the window
   * or once a lock has ended, and reaching `maxFailures` locks the key. A key that is locked is not
   * touched and the attempt is refused. Parallel attempts each get their own number, so at most
   * `maxFailures` of them are ever allowed through within a window.
   */
  async claimAttempt(key: string, now: Date, policy: ThrottlePolicy): Promise<AttemptClaim> {
    const table = signInThrottle;
    const lockUntil = new Date(now.getTime() + policy.lockMs);
    const fresh = sql`(${table.firstFailureAt} < ${at(new Date(now.getTime() - policy.windowMs))} or ${table.lockedUntil} <= ${at(now)})`;
    const count = sql`(case when ${fresh} then 1 else ${table.failures} + 1 end)`;
    const [row] = await this.db
      .insert(table)
      .values({ key, failures: 1, firstFailureAt: now, lockedUntil: policy.maxFailures <= 1 ? lockUntil : null })
      .onConflictDoUpdate({
        target: table.key,
        set: {
          failures: count,
          firstFailureAt: sql`case when ${fresh} then ${at(now)} else ${table.firstFailureAt} end`,
          lockedUntil: sql`case when ${count} >= ${policy.maxFailures} then ${at(lockUntil)} else null end`,
        },
        setWhere: or(isNull(table.lockedUntil), sql`${table.lockedUntil} <= ${at(now)}`),
      })
      .returning({ count: table.failures, lockedUntil: table.lockedUntil });
    if (row) return { allowed: true, count: row.count, lockedUntil: row.lockedUntil };
    const [locked] = await this.db.select({ lockedUntil: table.lockedUntil }).from(table).where(eq(table.key, key));
    return { allowed: false, lockedUntil: locked?.lockedUntil ?? lockUntil };
  }

  /** Gives back one claimed attempt (it turned out to be a success), unless the key is locked. */
  async releaseAttempt(key: string): Promise<void> {
    await this.db
      .update(signInThrottle)
      .set({ failures: sql`greatest(${signInThrottle.failures} - 1, 0)` })
      .where(and(eq(signInThrottle.key, key), isNull(signInThrottle.lockedUntil)));
  }

  async clearThrottle(key: string): Promise<void> {
    await this.db.delete(signInThrottle).where(eq(signInThrottle.key, key));
  }

  /**
   * Writes a security event. A refusal repeated from one address for one cause (type, email, detail) within
   * a window is one row whose `count` is raised: a flood of bogus tokens is recorded, not repeated. One
   * statement, on a key every instance computes alike, so it holds across instances.
   */
  async recordEvent(event: {
    type: SecurityEventType;
    email?: string | null;
    userId?: string | null;
    ipAddress?: string | null;
    detail?: string;
  }): Promise<void> {
    const row = {
      type: event.type,
      email: event.email ?? null,
      userId: event.userId ?? null,
      ipAddress: event.ipAddress ?? null,
      detail: event.detail ?? null,
    };
    if (!COUNTED_EVENTS.has(event.type)) {
      await this.db.insert(securityEvents).values(row);
      return;
    }
    const window = Math.floor(Date.now() / REPEAT_WINDOW_MS);
    const repeatKey = createHash('sha256')
      .update(JSON.stringify([row.type, row.ipAddress, row.email, row.detail, window]))
      .digest('hex');
    await this.db
      .insert(securityEvents)
      .values({ ...row, repeatKey })
      .onConflictDoUpdate({
        target: securityEvents.repeatKey,
        set: { count: sql`${securityEvents.count} + 1`, lastSeenAt: sql`now()` },
      });
  }

  /**
   * Retention: deletes security events older than `before`, throttle rows whose window and lock are
   * over, and expired codes and challenges. Returns how many security events went.
   */
  async prune(before: Date, now: Date, windowMs: number): Promise<number> {
    const events = await this.db
      .delete(securityEvents)
      .where(lt(securityEvents.createdAt, before))
      .returning({ id: securityEvents.id });
    await this.db
      .delete(signInThrottle)
      .where(
        and(
          lt(signInThrottle.firstFailureAt, new Date(now.getTime() - windowMs)),
          or(isNull(signInThrottle.lockedUntil), lt(signInThrottle.lockedUntil, now)),
        ),
      );
    await this.db.delete(passwordResetCodes).where(lt(passwordResetCodes.expiresAt, now));
    await this.db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
    return events.length;
  }
}
