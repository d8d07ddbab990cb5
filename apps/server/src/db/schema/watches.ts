import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.js';
import { sealedTokens } from './shared-state.js';

/**
 * A user's watch over one customer organization (decision 0031): what runs when, where it speaks and when, and
 * the customer's token stored with their consent (a sealed row; `token_id` null once it went). `next_run_at` is
 * the next due time in UTC while the watch is active.
 */
export const watches = pgTable(
  'watches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull(),
    organizationName: text('organization_name').notNull(),
    accountGroups: jsonb('account_groups').$type<{ aid: string; accountGroupName: string }[]>().notNull(),
    /** 'health', 'backup' or 'both'. */
    runs: text('runs').notNull(),
    /** { cadence, weekday, time, timeZone } (the contract's watchScheduleSchema). */
    schedule: jsonb('schedule').$type<Record<string, unknown>>().notNull(),
    /** { kind: 'owner' } or { kind: 'room', roomId }. */
    channel: jsonb('channel').$type<Record<string, unknown>>().notNull(),
    speakWhen: jsonb('speak_when').$type<Record<string, unknown>>().notNull(),
    /** 'active' or 'paused'. */
    status: text('status').notNull().default('active'),
    /** Why it is paused (a key of WATCH_PAUSE_REASONS); null while active. */
    pausedReason: text('paused_reason'),
    tokenId: uuid('token_id').references(() => sealedTokens.id, { onDelete: 'set null' }),
    /** The consent that keeps the token: its last 4 characters, who stored it when, who approved, until when. */
    tokenLast4: text('token_last4'),
    tokenStoredAt: timestamp('token_stored_at', { withTimezone: true }),
    tokenStoredBy: uuid('token_stored_by').references(() => users.id, { onDelete: 'set null' }),
    consentContactName: text('consent_contact_name'),
    consentContactEmail: text('consent_contact_email'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('watches_user_idx').on(table.userId, table.createdAt),
    // The scheduler reads the active watches by due time.
    index('watches_due_idx').on(table.status, table.nextRunAt),
  ],
);
