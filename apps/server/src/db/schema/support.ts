import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { bytea } from './bytea.js';
import { users } from './identity.js';

/** A packet capture uploaded to the support tool: its summary, whom it was shared with, and its bytes in chunks. */
export const pcapCaptures = pgTable(
  'pcap_captures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    size: integer('size').notNull().default(0),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    sharedWith: jsonb('shared_with')
      .$type<{ email: string; caseNumber: string; at: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('pcap_captures_user_idx').on(table.userId, table.createdAt)],
);

/** A capture's bytes, 1 MB a row, written as the upload streams in (never held whole in memory). */
export const pcapChunks = pgTable(
  'pcap_chunks',
  {
    captureId: uuid('capture_id')
      .notNull()
      .references(() => pcapCaptures.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: bytea('content').notNull(),
  },
  (table) => [primaryKey({ columns: [table.captureId, table.position] })],
);

/** A diagnostic run's result (never the token), kept for downloads and Webex for the retention period. */
export const diagnosticRuns = pgTable(
  'diagnostic_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    report: jsonb('report').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('diagnostic_runs_user_idx').on(table.userId, table.createdAt)],
);
