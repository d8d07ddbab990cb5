import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jobColumns } from './job-columns.js';

/**
 * A bulk run: a server job that performs many platform operations (create tests, delete agents,
 * label tests, invite users), paced by the organization's rate limit and resumable after a crash.
 */
export const bulkRuns = pgTable(
  'bulk_runs',
  {
    ...jobColumns(),
    /** The request as validated (templates, groups, label, invitees...), without the token. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** Items are written once, by the first worker that plans the run. */
    planned: boolean('planned').notNull().default(false),
    undoOf: uuid('undo_of'),
    undoneBy: uuid('undone_by'),
  },
  (table) => [index('bulk_runs_user_idx').on(table.userId, table.createdAt)],
);

/** One platform operation of a run; `running` means it was sent and its answer is not recorded yet. */
export const bulkRunItems = pgTable(
  'bulk_run_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => bulkRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    action: text('action').notNull(),
    templateIndex: integer('template_index'),
    aid: text('aid').notNull(),
    accountGroupName: text('account_group_name').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    resultId: text('result_id'),
    note: text('note'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('bulk_run_items_position_idx').on(table.runId, table.position)],
);
