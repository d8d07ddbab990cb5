import { and, desc, eq, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { sessions, users } from '../../db/schema.js';
import type { UserRow } from '../../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  async findWithUser(idHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.idHash, idHash))
      .limit(1);
    return row;
  }

  async touch(idHash: string, at: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.idHash, idHash));
  }

  async delete(idHash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.idHash, idHash));
  }

  async deleteAllForUser(userId: string): Promise<number> {
    const deleted = await this.db
      .delete(sessions)
      .where(eq(sessions.userId, userId))
      .returning({ idHash: sessions.idHash });
    return deleted.length;
  }

  async deleteAllForUserExcept(userId: string, keepIdHash: string): Promise<number> {
    const deleted = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
      .returning({ idHash: sessions.idHash });
    return deleted.length;
  }

  async deleteByPublicId(userId: string, publicId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
      .returning({ idHash: sessions.idHash });
    return deleted.length === 1;
  }

  async listForUser(userId: string): Promise<SessionRow[]> {
    return this.db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.lastSeenAt));
  }

  /** Removes sessions past their absolute lifetime or idle longer than `idleMs`. */
  async purgeExpired(now: Date, idleMs: number): Promise<number> {
    const idleBefore = new Date(now.getTime() - idleMs);
    const deleted = await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleBefore)))
      .returning({ idHash: sessions.idHash });
    return deleted.length;
  }
}
