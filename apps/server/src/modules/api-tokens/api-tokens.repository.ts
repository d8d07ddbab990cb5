import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { apiTokens, users } from '../../db/schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type ApiTokenWithOwner = ApiTokenRow & { ownerEmail: string };

/** SQL for personal API tokens: stored by the hash of their secret, read with their owner. */
export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
    const [created] = await this.db.insert(apiTokens).values(row).returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  /** The token with this hash and its owner's account, whatever its state (the caller says why it is refused). */
  async findByHash(tokenHash: string) {
    const [row] = await this.db
      .select({ token: apiTokens, owner: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, tokenHash));
    return row;
  }

  /** Notes a use, at most once a minute per token (a script's every call is not a write). */
  async touch(id: string, now: Date): Promise<void> {
    await this.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, id),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
        ),
      );
  }

  /** One user's tokens, or everyone's: newest first, with their owner's email. */
  async list(userId?: string): Promise<ApiTokenWithOwner[]> {
    const rows = await this.db
      .select({ token: apiTokens, ownerEmail: users.email })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(userId ? eq(apiTokens.userId, userId) : undefined)
      .orderBy(desc(apiTokens.createdAt), asc(apiTokens.name));
    return rows.map((row) => ({ ...row.token, ownerEmail: row.ownerEmail }));
  }

  async find(id: string): Promise<ApiTokenWithOwner | undefined> {
    const [row] = await this.db
      .select({ token: apiTokens, ownerEmail: users.email })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.id, id));
    return row ? { ...row.token, ownerEmail: row.ownerEmail } : undefined;
  }

  /** Revokes a token still live; false when it was already revoked. */
  async revoke(id: string, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(apiTokens)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length === 1;
  }

  /** A user's tokens not revoked yet. */
  live(userId: string): Promise<ApiTokenRow[]> {
    return this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  }
}
