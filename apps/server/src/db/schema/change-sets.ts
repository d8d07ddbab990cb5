import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { jobColumns } from './job-columns.js';
import { sealedTokens } from './shared-state.js';

/**
 * A change set (a run of a writing tool): a server job that performs many writes into a customer's account
 * (create tests, delete agents, label tests, invite users, migrate alert rules, restore a backup), paced by
 * the organization's rate limit, each exactly once, resumable after a crash, undoable. See core/change-sets
 * and core/runs.
 */
export const changeSets = pgTable(
  'change_sets',
  {
    ...jobColumns(),
    /** The request as validated (templates, groups, label, invitees...), without the token. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** Items are written once, by the first worker that plans the run. */
    planned: boolean('planned').notNull().default(false),
    undoOf: uuid('undo_of'),
    undoneBy: uuid('undone_by'),
    /** A second organization's token, for a change set that reads one organization and writes another. */
    targetTokenId: uuid('target_token_id').references(() => sealedTokens.id, { onDelete: 'set null' }),
    targetOrganizationId: text('target_organization_id'),
  },
  (table) => [
    index('change_sets_user_idx').on(table.userId, table.createdAt),
    // A customer's page reads one organization's runs by date.
    index('change_sets_organization_idx').on(table.organizationId, table.createdAt),
  ],
);

/** One platform operation of a change set; `running` means it was sent and its answer is not recorded yet. */
export const changeSetItems = pgTable(
  'change_set_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => changeSets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    action: text('action').notNull(),
    /** Which entry of the run's input the item came from (a bulk tests run's template), when it matters. */
    inputIndex: integer('input_index'),
    aid: text('aid').notNull(),
    accountGroupName: text('account_group_name').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Which token writes the item: the run's own (`source`) or its second organization's (`target`). */
    side: text('side').notNull().default('source'),
    /** Items run phase by phase: a later phase starts when the earlier one has ended (a move deletes last). */
    phase: integer('phase').notNull().default(0),
    /** What the item replaces or removes, as read when planned: what its undo puts back. */
    before: jsonb('before').$type<Record<string, unknown>>(),
    /** The plan's account of the item: references resolved and dropped, field differences. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    status: text('status').notNull().default('pending'),
    resultId: text('result_id'),
    note: text('note'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('change_set_items_position_idx').on(table.runId, table.position)],
);
