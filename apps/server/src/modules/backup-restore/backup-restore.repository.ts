import { and, asc, desc, eq, gt, ilike, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../core/database.js';
import { timelineWhere, type TimelineQuery } from '../../core/timeline.js';
import { Leases } from '../../core/lease.js';
import { emailOf } from '../../core/requester.js';
import { backupChunks, backupItems, backups, changeSets, users } from '../../db/schema.js';
import type { ItemHalf } from './archive-reader.js';
import { BACKUP_KINDS, type BackupItem } from './archive.js';

export type BackupRow = typeof backups.$inferSelect;
/** What the index holds, read back as what it is. */
const kindSchema = z.enum(BACKUP_KINDS);
const jsonObject = z.record(z.string(), z.unknown());

/** An upload being checked and indexed: kept out of every list until it is done (or deleted when refused). */
export const UPLOADING = 'uploading';

type IndexRow = typeof backupItems.$inferInsert;
/** Rows of the item index are written this many at a time. */
const INDEX_BATCH = 200;

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

  /**
   * Inserts a watch run's backup of one account group with its sealed token in one transaction, unless the run
   * has that backup already (unique watch_run_id and aid): answers the row, or undefined when another insert won.
   */
  async insertOnce(
    row: Omit<typeof backups.$inferInsert, 'tokenId'>,
    sealToken: (tx: Db) => Promise<string>,
  ): Promise<BackupRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(backups).values(row).onConflictDoNothing().returning();
      if (!created) return undefined;
      const tokenId = await sealToken(tx);
      await tx.update(backups).set({ tokenId }).where(eq(backups.id, created.id));
      return { ...created, tokenId };
    });
  }

  /** The backups watch run `watchRunId` made, one per account group. */
  ofWatchRun(watchRunId: string): Promise<BackupRow[]> {
    return this.db.select().from(backups).where(eq(backups.watchRunId, watchRunId));
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

  /**
   * Inserts an upload (status `uploading`) if the user's uploaded archives leave room for it under `quotaBytes`;
   * answers what they use when they do not. The user's row is locked meanwhile, so two uploads at once cannot
   * both take the last room.
   */
  async insertUpload(
    row: Omit<typeof backups.$inferInsert, 'tokenId' | 'status' | 'origin'> & { userId: string; size: number },
    quotaBytes: number,
  ): Promise<{ row: BackupRow } | { usedBytes: number }> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, row.userId)).for('update');
      const [used] = await tx
        .select({ bytes: sql<number>`coalesce(sum(${backups.size}), 0)::bigint` })
        .from(backups)
        .where(and(eq(backups.userId, row.userId), eq(backups.origin, 'upload')));
      const usedBytes = Number(used?.bytes ?? 0);
      if (usedBytes + row.size > quotaBytes) return { usedBytes };
      const [created] = await tx
        .insert(backups)
        .values({ ...row, origin: 'upload', status: UPLOADING })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return { row: created };
    });
  }

  /** Deletes a backup: its archive's chunks and its item index go with it. False when it was gone already. */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.delete(backups).where(eq(backups.id, id)).returning({ id: backups.id });
    return deleted.length > 0;
  }

  /** Whether a restore from the backup waits or runs: its items are still to be read. */
  async restoring(backupId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: changeSets.id })
      .from(changeSets)
      .where(
        and(
          eq(changeSets.kind, 'restore'),
          inArray(changeSets.status, ['queued', 'running']),
          sql`${changeSets.input}->>'backupId' = ${backupId}`,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  /** Adds items to the index, both halves at once (the backup job, as it writes them, in its fenced write). */
  async addItems(backupId: string, items: BackupItem[], db: Db = this.db): Promise<void> {
    await this.upsertIndex(
      items.map((item) => ({
        backupId,
        kind: item.kind,
        key: item.key,
        name: item.name,
        masked: item.masked,
        config: JSON.stringify(item.config),
        server: JSON.stringify(item.server),
      })),
      db,
    );
  }

  /** Adds items' halves to the index as an archive is read (a config file and its server file may come apart). */
  async addHalves(backupId: string, halves: ItemHalf[]): Promise<void> {
    const rows = new Map<string, IndexRow>();
    for (const half of halves) {
      const id = `${half.kind}\u0000${half.key}`;
      const row = rows.get(id) ?? { backupId, kind: half.kind, key: half.key, name: half.name, masked: [] };
      if (half.part === 'config') Object.assign(row, { config: half.json, masked: half.masked });
      else row.server = half.json;
      rows.set(id, row);
    }
    await this.upsertIndex([...rows.values()]);
  }

  private async upsertIndex(rows: IndexRow[], db: Db = this.db): Promise<void> {
    for (let start = 0; start < rows.length; start += INDEX_BATCH)
      await db
        .insert(backupItems)
        .values(rows.slice(start, start + INDEX_BATCH))
        .onConflictDoUpdate({
          target: [backupItems.backupId, backupItems.kind, backupItems.key],
          set: {
            config: sql`coalesce(excluded.config, ${backupItems.config})`,
            server: sql`coalesce(excluded.server, ${backupItems.server})`,
            masked: sql`case when excluded.config is null then ${backupItems.masked} else excluded.masked end`,
          },
        });
  }

  /** A backup's items from its index, by kind and key. */
  async items(backupId: string): Promise<BackupItem[]> {
    const rows = await this.db
      .select()
      .from(backupItems)
      .where(eq(backupItems.backupId, backupId))
      .orderBy(asc(backupItems.kind), asc(backupItems.key));
    return rows.map((row) => ({
      kind: kindSchema.parse(row.kind),
      key: row.key,
      name: row.name,
      masked: row.masked,
      config: jsonObject.parse(JSON.parse(row.config ?? '{}')),
      server: jsonObject.parse(JSON.parse(row.server ?? '{}')),
    }));
  }

  /** What a backup holds, item by item, without the configurations. */
  async itemNames(backupId: string): Promise<Pick<BackupItem, 'kind' | 'key' | 'name' | 'masked'>[]> {
    const rows = await this.db
      .select({ kind: backupItems.kind, key: backupItems.key, name: backupItems.name, masked: backupItems.masked })
      .from(backupItems)
      .where(eq(backupItems.backupId, backupId))
      .orderBy(asc(backupItems.kind), asc(backupItems.key));
    return rows.map((row) => ({ ...row, kind: kindSchema.parse(row.kind) }));
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
          ne(backups.status, UPLOADING),
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

  /** One organization's backups for its page (uploads under way left out), newest first, with their owners. */
  async timeline(query: TimelineQuery) {
    return this.db
      .select({ backup: backups, name: users.name, email: users.email })
      .from(backups)
      .innerJoin(users, eq(users.id, backups.userId))
      .where(and(ne(backups.status, UPLOADING), timelineWhere(query, backups)))
      .orderBy(desc(backups.createdAt))
      .limit(query.limit);
  }

  requesterEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  activeCount(userId: string): Promise<number> {
    return this.leases.activeCount(userId);
  }

  /**
   * Replaces the archive's bytes and its item index (a retried job writes them again from the start). `db`:
   * the backup job's fenced write (HeldJob.fenced), so a worker that lost its lease writes none of them.
   */
  async clearArchive(backupId: string, db: Db = this.db): Promise<void> {
    await db.delete(backupChunks).where(eq(backupChunks.backupId, backupId));
    await db.delete(backupItems).where(eq(backupItems.backupId, backupId));
  }

  async addChunk(backupId: string, position: number, content: Buffer, db: Db = this.db): Promise<void> {
    await db.insert(backupChunks).values({ backupId, position, content });
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

  /**
   * Deletes finished backups made before `before` (their bytes and index go with them), and uploads whose
   * check never ended (the instance stopped meanwhile) begun before `abandonedBefore`.
   */
  async deleteFinishedBefore(before: Date, abandonedBefore = before): Promise<number> {
    const deleted = await this.db
      .delete(backups)
      .where(
        or(
          and(inArray(backups.status, ['done', 'failed']), lt(backups.createdAt, before)),
          and(eq(backups.status, UPLOADING), lt(backups.createdAt, abandonedBefore)),
        ),
      )
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
