import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/database.js';
import { authChallenges, passwordResetCodes, securityEvents, signInThrottle } from '../../db/schema.js';
import type { ThrottleState } from './sign-in-throttle.js';

export type SecurityEventType =
  | 'sign_in_failed'
  | 'sign_in_locked'
  | 'sign_in_refused_locked'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset_completed'
  | 'password_reset_failed'
  | 'new_password_set'
  | 'sso_sign_in';

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
    await this.db.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
    await this.db.insert(passwordResetCodes).values({ userId, codeHash, expiresAt });
  }

  async latestResetCode(userId: string) {
    const [row] = await this.db
      .select()
      .from(passwordResetCodes)
      .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.usedAt)))
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1);
    return row;
  }

  async countFailedAttempt(id: string): Promise<void> {
    const [row] = await this.db.select().from(passwordResetCodes).where(eq(passwordResetCodes.id, id));
    if (row)
      await this.db
        .update(passwordResetCodes)
        .set({ attempts: row.attempts + 1 })
        .where(eq(passwordResetCodes.id, id));
  }

  async markCodeUsed(id: string, at: Date): Promise<boolean> {
    const updated = await this.db
      .update(passwordResetCodes)
      .set({ usedAt: at })
      .where(and(eq(passwordResetCodes.id, id), isNull(passwordResetCodes.usedAt)))
      .returning({ id: passwordResetCodes.id });
    return updated.length === 1;
  }

  async throttleState(key: string): Promise<ThrottleState | undefined> {
    const [row] = await this.db.select().from(signInThrottle).where(eq(signInThrottle.key, key));
    return row;
  }

  async saveThrottleState(key: string, state: ThrottleState): Promise<void> {
    await this.db
      .insert(signInThrottle)
      .values({ key, ...state })
      .onConflictDoUpdate({ target: signInThrottle.key, set: state });
  }

  async clearThrottle(key: string): Promise<void> {
    await this.db.delete(signInThrottle).where(eq(signInThrottle.key, key));
  }

  async recordEvent(event: {
    type: SecurityEventType;
    email?: string | null;
    userId?: string | null;
    ipAddress?: string | null;
    detail?: string;
  }): Promise<void> {
    await this.db.insert(securityEvents).values({
      type: event.type,
      email: event.email ?? null,
      userId: event.userId ?? null,
      ipAddress: event.ipAddress ?? null,
      detail: event.detail ?? null,
    });
  }
}
