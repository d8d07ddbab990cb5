import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { users } from './identity.js';

/**
 * The results file of a time-tracker run (the rows with the created Id or the error, like a data loader's
 * success and error files), kept for its owner for the retention period.
 */
export const trackerResults = pgTable(
  'tracker_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    content: bytea('content').notNull(),
    created: integer('created').notNull(),
    failed: integer('failed').notNull(),
    duplicates: integer('duplicates').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('tracker_results_user_idx').on(table.userId, table.createdAt)],
);
