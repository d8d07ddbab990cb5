import { and, count, desc, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../core/database.js';
import { users, watches } from '../../db/schema.js';

export type WatchRow = typeof watches.$inferSelect;
export interface WatchWithPeople {
  watch: WatchRow;
  owner: { email: string; name: string };
  /** The owner's account as it stands: a disabled owner's watch cannot resume, nor take a new token. */
  ownerAccount: { disabled: boolean; locale: string | null };
  storedBy: { email: string; name: string } | null;
}

const storer = alias(users, 'token_storer');

/** SQL for watches: one user's or everyone's, with their owner and the user who stored the token. */
export class WatchRepository {
  constructor(private readonly db: Db) {}

  private select(db: Db = this.db) {
    return db
      .select({
        watch: watches,
        ownerEmail: users.email,
        ownerName: users.name,
        ownerDisabled: users.disabled,
        ownerLocale: users.locale,
        storedByEmail: storer.email,
        storedByName: storer.name,
      })
      .from(watches)
      .innerJoin(users, eq(users.id, watches.userId))
      .leftJoin(storer, eq(storer.id, watches.tokenStoredBy));
  }

  private static people(row: {
    watch: WatchRow;
    ownerEmail: string;
    ownerName: string | null;
    ownerDisabled: boolean;
    ownerLocale: string | null;
    storedByEmail: string | null;
    storedByName: string | null;
  }): WatchWithPeople {
    return {
      watch: row.watch,
      owner: { email: row.ownerEmail, name: row.ownerName ?? row.ownerEmail },
      ownerAccount: { disabled: row.ownerDisabled, locale: row.ownerLocale },
      storedBy: row.storedByEmail ? { email: row.storedByEmail, name: row.storedByName ?? row.storedByEmail } : null,
    };
  }

  /**
   * Inserts a watch within the caps on watches per user and per organization: the count and the insert run under
   * the user's and the organization's transaction locks (in that order), so two instances creating at once never
   * pass a cap together. Answers the row, or which cap refused it (nothing sealed then).
   */
  async insert(
    row: typeof watches.$inferInsert,
    sealToken: (tx: Db) => Promise<string>,
    caps: { perUser: number; perOrganization: number },
  ): Promise<WatchRow | { refused: 'user' | 'organization' }> {
    return this.db.transaction(async (tx) => {
      for (const key of [`watches:user:${row.userId}`, `watches:organization:${row.organizationId}`])
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      const [ofUser] = await tx.select({ n: count() }).from(watches).where(eq(watches.userId, row.userId));
      if ((ofUser?.n ?? 0) >= caps.perUser) return { refused: 'user' as const };
      const [ofOrganization] = await tx
        .select({ n: count() })
        .from(watches)
        .where(eq(watches.organizationId, row.organizationId));
      if ((ofOrganization?.n ?? 0) >= caps.perOrganization) return { refused: 'organization' as const };
      const tokenId = await sealToken(tx);
      const [created] = await tx
        .insert(watches)
        .values({ ...row, tokenId })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return created;
    });
  }

  async find(id: string): Promise<WatchWithPeople | undefined> {
    const [row] = await this.select().where(eq(watches.id, id));
    return row && WatchRepository.people(row);
  }

  /** One user's watches, or everyone's: newest first. */
  async list(userId?: string): Promise<WatchWithPeople[]> {
    const rows = await this.select()
      .where(userId ? eq(watches.userId, userId) : undefined)
      .orderBy(desc(watches.createdAt));
    return rows.map((row) => WatchRepository.people(row));
  }

  async update(id: string, changes: Partial<typeof watches.$inferInsert>): Promise<void> {
    await this.db
      .update(watches)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(watches.id, id));
  }

  /**
   * An edit's settings, only if the watch is as the edit saw it (`updated_at` to the millisecond, as the API says it):
   * false when someone changed it since. The next run is set in the same statement while the watch is active, so a
   * pause that came between leaves none.
   */
  async updateSettings(
    id: string,
    expected: Date,
    changes: Partial<typeof watches.$inferInsert>,
    nextRunAt: Date,
  ): Promise<boolean> {
    const updated = await this.db
      .update(watches)
      .set({
        ...changes,
        nextRunAt: sql`case when ${watches.status} = 'active' then ${nextRunAt.toISOString()}::timestamptz end`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(watches.id, id),
          sql`date_trunc('milliseconds', ${watches.updatedAt}) = ${expected.toISOString()}::timestamptz`,
        ),
      )
      .returning({ id: watches.id });
    return updated.length > 0;
  }

  /**
   * Replaces the stored token in one transaction: the new one sealed (or none), the old sealed row deleted,
   * and the watch's other changes; the old row's id is answered for the audit. `expected` is the token row
   * the caller saw: a concurrent change in between is refused (false), so two revocations erase once.
   */
  async replaceToken(
    id: string,
    expected: string | null,
    changes: Partial<typeof watches.$inferInsert>,
    sealToken: ((tx: Db) => Promise<string>) | null,
    erase: (tx: Db, tokenId: string) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const tokenId = sealToken ? await sealToken(tx) : null;
      const updated = await tx
        .update(watches)
        .set({ ...changes, tokenId, updatedAt: sql`now()` })
        .where(
          and(eq(watches.id, id), expected === null ? sql`${watches.tokenId} is null` : eq(watches.tokenId, expected)),
        )
        .returning({ id: watches.id });
      if (updated.length === 0) {
        if (tokenId) await erase(tx, tokenId);
        return false;
      }
      if (expected) await erase(tx, expected);
      return true;
    });
  }

  /** Deletes the watch and its sealed token together. */
  async delete(id: string, erase: (tx: Db, tokenId: string) => Promise<void>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.delete(watches).where(eq(watches.id, id)).returning({ tokenId: watches.tokenId });
      if (row?.tokenId) await erase(tx, row.tokenId);
    });
  }

  /** A user's watches that are active or hold a token (what a change of its account may have to stop). */
  async liveOf(userId: string): Promise<WatchRow[]> {
    return this.db
      .select()
      .from(watches)
      .where(and(eq(watches.userId, userId), or(eq(watches.status, 'active'), isNotNull(watches.tokenId))));
  }

  /** Watches whose stored token has expired by `now` and still holds one. */
  async expired(now: Date): Promise<WatchRow[]> {
    return this.db
      .select()
      .from(watches)
      .where(and(sql`${watches.tokenId} is not null`, lte(watches.tokenExpiresAt, now)));
  }
}
