import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { users } from './identity.js';
import { jobColumns } from './job-columns.js';
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
    /** Its duty of last month's review pack, requested by the first run that ends in a new month. */
    monthlyReviewPack: boolean('monthly_review_pack').notNull().default(false),
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

/**
 * One run of a watch at one due time (decision 0031): `unique (watch_id, due_at)` makes each due run exactly one
 * row whoever schedules it, and the row is a leased job (the job columns). The health check and the backups it
 * starts name it (`watch_run_id`); once they end, it keeps what the next run compares with: the score, the
 * findings by check (without the report's tables), and what was said.
 */
export const watchRuns = pgTable(
  'watch_runs',
  {
    ...jobColumns(),
    watchId: uuid('watch_id')
      .notNull()
      .references(() => watches.id, { onDelete: 'cascade' }),
    accountGroups: jsonb('account_groups').$type<{ aid: string; accountGroupName: string }[]>().notNull(),
    /** The due time this run is for (the schedule's, or the moment "Run now" was asked). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** 'schedule' or 'now'. */
    trigger: text('trigger').notNull(),
    /** The health check's score, and its checks with their items (what the next run compares with). */
    score: integer('score'),
    findings: jsonb('findings').$type<
      {
        id: string;
        title: string;
        status: string;
        items: { type: string; id: string; name: string; detail: string }[];
      }[]
    >(),
    /** The backups made, by account group: { aid, backupId }. */
    backups: jsonb('backups').$type<{ aid: string; backupId: string }[]>(),
    /**
     * What the platform measured at the run (the contract's measurementsSchema, decision 0037): kept with the run,
     * as long as the score, so the customer page draws trends past the platform's own windows. Null without a
     * health check, or for a run before it was kept.
     */
    measurements: jsonb('measurements').$type<Record<string, unknown>>(),
    /** What changed since the previous run (the message's content, as data). */
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    /** 'pending', 'sent', 'quiet' (nothing to say), 'failed' (Webex refused), 'none' (no Webex). */
    deliveryStatus: text('delivery_status').notNull().default('pending'),
    deliveryError: text('delivery_error'),
    message: text('message'),
  },
  (table) => [
    unique('watch_runs_due_unique').on(table.watchId, table.dueAt),
    index('watch_runs_watch_idx').on(table.watchId, table.createdAt),
    // Runs take their turn per organization (issue 55): its runs working and waiting, and when each owner's last began.
    index('watch_runs_organization_idx').on(table.organizationId, table.status, table.userId),
    // What "My customers" shows reads as much whatever the history kept (issue 56): each watch's latest run with
    // findings, and the runs finished this week (the regressions several customers share).
    index('watch_runs_findings_idx')
      .on(table.watchId, table.createdAt)
      .where(sql`${table.status} = 'done' and ${table.findings} is not null`),
    index('watch_runs_done_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'done'`),
  ],
);

/**
 * A finding waived for one customer organization (decision 0031): one item of a check (`item_key` = type:id), or
 * the whole check (`item_key` null), with a reason and an expiry. A waived finding is listed apart and counts in
 * neither the score delta nor a watch's message; it returns when the waiver expires.
 */
export const watchWaivers = pgTable(
  'watch_waivers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: text('organization_id').notNull(),
    checkId: text('check_id').notNull(),
    itemKey: text('item_key'),
    /** The item's name when it was waived (what lists show). */
    itemName: text('item_name'),
    reason: text('reason').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('watch_waivers_organization_idx').on(table.organizationId, table.expiresAt)],
);
