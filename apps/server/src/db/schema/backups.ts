import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { bytea } from './bytea.js';
import { jobColumns } from './job-columns.js';

/**
 * A backup of one account group's configuration: made by a job from a customer's token (sealed while it
 * runs), or uploaded; the archive's bytes in chunks beside it. Kept for the backups' own retention.
 */
export const backups = pgTable(
  'backups',
  {
    ...jobColumns(),
    aid: text('aid').notNull(),
    accountGroupName: text('account_group_name').notNull(),
    /** 'live' (read from the platform) or 'upload' (an archive someone sent). */
    origin: text('origin').notNull().default('live'),
    /** Items per kind, from the manifest. */
    counts: jsonb('counts').$type<Record<string, number>>(),
    items: integer('items'),
    size: integer('size'),
    /** SHA-256 of the archive's bytes. */
    checksum: text('checksum'),
    /**
     * When its items went into `backup_items` (as the backup was written or the upload checked); null for an
     * archive kept by an earlier version, indexed on its first read.
     */
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    /** The watch run this backup is part of (decision 0031): one backup per run and account group. */
    watchRunId: uuid('watch_run_id'),
  },
  (table) => [
    uniqueIndex('backups_watch_run_unique').on(table.watchRunId, table.aid),
    index('backups_organization_idx').on(table.organizationId, table.aid, table.createdAt),
    index('backups_user_idx').on(table.userId, table.createdAt),
  ],
);

export const backupChunks = pgTable(
  'backup_chunks',
  {
    backupId: uuid('backup_id')
      .notNull()
      .references(() => backups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: bytea('content').notNull(),
  },
  (table) => [primaryKey({ columns: [table.backupId, table.position] })],
);

/**
 * A backup's items, read once from its archive (or as the job wrote them): what items, drift, plans and
 * restores read, so none of them unpacks the archive again. Each half is its JSON text.
 */
export const backupItems = pgTable(
  'backup_items',
  {
    backupId: uuid('backup_id')
      .notNull()
      .references(() => backups.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    masked: jsonb('masked').$type<string[]>().notNull().default([]),
    config: text('config'),
    server: text('server'),
  },
  (table) => [primaryKey({ columns: [table.backupId, table.kind, table.key] })],
);
