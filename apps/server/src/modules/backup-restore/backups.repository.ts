import { and, asc, desc, eq, gt, ilike, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { Leases } from '../../core/lease.js';
import { emailOf } from '../../core/requester.js';
import { backupChunks, backups, users } from '../../db/schema.js';

export type BackupRow = typeof backups.$inferSelect;

export interface BackupQuery {
  userId?: string;
  search?: string;
  sort: 'createdAt' | 'accountGroupName' | 'organizationName' | 'items' | 'size';
  direction: 'asc' | 'desc';
  limit: number;
}

/** SQL for backups: the row (a job's, while it runs) and the archive's bytes in chunks. */
export class BackupsRepository {
  readonly leases: Leases<typeof backups>;

  constructor(private readonly db: Db) {
    this.leases = new Leases(db, backups);
  }

  /** Inserts a backup and its sealed token in one transaction: neither exists without the other. */
  async insert(
    row: Omit<typeof backups.$inferInsert, 'tokenId'>,
    sealToken?: (tx: Pick<Db, 'insert'>) => Promise<string>,
  ): Promise<BackupRow> {
    return this.db.transaction(async (tx) => {
      const tokenId = sealToken ? await sealToken(tx) : null;
      const [created] = await tx
        .insert(backups)
        .values({ ...row, tokenId })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return created;
    });
  }

  /** The user's backups that failed after `since`, newest first. */
  problemsSince(userId: string, since: Date, limit: number): Promise<BackupRow[]> {
    return this.db
      .select()
      .from(backups)
      .where(and(eq(backups.userId, userId), eq(backups.status, 'failed'), gt(backups.finishedAt, since)))
      .orderBy(desc(backups.finishedAt))
      .limit(limit);
  }

  async find(id: string): Promise<BackupRow | undefined> {
    const [row] = await this.db.select().from(backups).where(eq(backups.id, id));
    return row;
  }

  update(id: string, changes: Partial<typeof backups.$inferInsert>): Promise<void> {
    return this.leases.update(id, changes);
  }

  async list(query: BackupQuery) {
    const needle = query.search ? `%${query.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
    const column = {
      createdAt: backups.createdAt,
      accountGroupName: backups.accountGroupName,
      organizationName: backups.organizationName,
      items: backups.items,
      size: backups.size,
    }[query.sort];
    const rows = await this.db
      .select({ backup: backups, requestedBy: users.email })
      .from(backups)
      .innerJoin(users, eq(users.id, backups.userId))
      .where(
        and(
          query.userId ? eq(backups.userId, query.userId) : undefined,
          needle
            ? or(
                ilike(backups.accountGroupName, needle),
                ilike(backups.organizationName, needle),
                ilike(users.email, needle),
              )
            : undefined,
        ),
      )
      .orderBy(query.direction === 'asc' ? asc(column) : desc(column), desc(backups.id))
      .limit(query.limit);
    return rows.map((row) => ({ ...row.backup, requestedBy: row.requestedBy }));
  }

  requesterEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  activeCount(userId: string): Promise<number> {
    return this.leases.activeCount(userId);
  }

  /** Replaces the archive's bytes (a retried job writes them again from the start). */
  async clearChunks(backupId: string): Promise<void> {
    await this.db.delete(backupChunks).where(eq(backupChunks.backupId, backupId));
  }

  async addChunk(backupId: string, position: number, content: Buffer): Promise<void> {
    await this.db.insert(backupChunks).values({ backupId, position, content });
  }

  /** The archive's bytes, chunk by chunk, in order (one chunk in memory at a time). */
  async *chunks(backupId: string): AsyncGenerator<Buffer> {
    const positions = await this.db
      .select({ position: backupChunks.position })
      .from(backupChunks)
      .where(eq(backupChunks.backupId, backupId))
      .orderBy(asc(backupChunks.position));
    for (const { position } of positions) {
      const [row] = await this.db
        .select({ content: backupChunks.content })
        .from(backupChunks)
        .where(and(eq(backupChunks.backupId, backupId), eq(backupChunks.position, position)));
      if (row) yield row.content;
    }
  }

  /** Deletes finished backups made before `before` (their bytes go with them). */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(backups)
      .where(and(inArray(backups.status, ['done', 'failed']), lt(backups.createdAt, before)))
      .returning({ id: backups.id });
    return deleted.length;
  }

  /** How many bytes the archive holds (what was stored, not what was declared). */
  async storedSize(backupId: string): Promise<number> {
    const [row] = await this.db
      .select({ size: sql<number>`coalesce(sum(octet_length(${backupChunks.content})), 0)::int` })
      .from(backupChunks)
      .where(eq(backupChunks.backupId, backupId));
    return Number(row?.size ?? 0);
  }
}
