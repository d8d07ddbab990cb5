import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { bytea } from './bytea.js';

/**
 * Requests per address and minute on the public operations (sign-in, reset, SSO), counted here so that
 * every instance draws on one count: N instances never allow N times the limit.
 */
export const publicThrottle = pgTable('public_throttle', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/**
 * The platform's rate budget per organization (`org:<id>`, or `token:<hash>` until it is known), shared by
 * every instance and worker: what the last answers said remains in the current window and when it ends.
 * `remaining` null means unknown (a new window): one instance probes it (`probe_until`) while the others
 * wait. `granted` and `probe` are what the last take handed out, read back by the statement that took.
 */
export const rateBudgets = pgTable('rate_budgets', {
  key: text('key').primaryKey(),
  callLimit: integer('call_limit'),
  remaining: integer('remaining'),
  resetAt: timestamp('reset_at', { withTimezone: true }),
  probeUntil: timestamp('probe_until', { withTimezone: true }),
  granted: integer('granted').notNull().default(0),
  probe: boolean('probe').notNull().default(false),
  /** Slots each lane took in the current window (lanes: rate-limiter.ts). */
  interactiveTaken: integer('interactive_taken').notNull().default(0),
  backgroundTaken: integer('background_taken').notNull().default(0),
  /** Of background's, the slots scheduled work (watch runs) took: at most its share of the window. */
  scheduledTaken: integer('scheduled_taken').notNull().default(0),
  /** When a background call last asked: background holds its share only while it is about. */
  backgroundSeenAt: timestamp('background_seen_at', { withTimezone: true }),
  /** Unused since 0035 (one count for every holder: a holder that died kept it up while others took); kept one release. */
  inFlight: integer('in_flight').notNull().default(0),
  inFlightUntil: timestamp('in_flight_until', { withTimezone: true }),
  /**
   * Calls handed out and not yet answered, by holder (a process's budgets): `{ "<holder>": { "n": 3, "until": ms } }`.
   * A holder's count lapses at its `until` (its last take plus the moments a call takes to reach the platform): a
   * holder paused or killed with calls out stops weighing on the budget then, whoever else keeps taking.
   */
  inFlightBy: jsonb('in_flight_by').$type<Record<string, { n: number; until: number }>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every Webex message the product sends, one row a key (issue 56): recorded with what it says (and its file) before
 * it is sent, confirmed after (`sent`). A send Webex did not take waits (`waiting`) and is tried again with a
 * back-off, by whichever instance's retry finds it due, until it is sent or given up (`failed`, told on its run's
 * page and in notifications). `sending` is a claim: one sender at a time, lapsed at `claimed_until` (a sender that
 * died); a message whose claim lapsed is looked for among the bot's messages before it is sent again.
 */
export const webexDeliveries = pgTable(
  'webex_deliveries',
  {
    key: text('key').primaryKey(),
    toEmail: text('to_email').notNull(),
    /** SHA-256 of the markdown as sent (fitted to Webex's limit): how the message is recognised. */
    markdownSha256: text('markdown_sha256').notNull(),
    status: text('status').notNull(),
    messageId: text('message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** What is sent, kept until it is: a retry sends it from here (null on rows of the release before). */
    markdown: text('markdown'),
    fileName: text('file_name'),
    fileType: text('file_type'),
    /** The file's bytes, erased once the message is sent or given up. */
    fileContent: bytea('file_content'),
    /** Whose message it is (`report:<id>`, `change-set:<id>`, `watch-run:<id>`, `watch:<id>`): told of its end. */
    subject: text('subject'),
    /** Its place among its subject's messages: a later one is not sent before an earlier one. */
    position: integer('position').notNull().default(0),
    /** The person told when it finally fails, and the words (`DeliveryNotice`). */
    userId: uuid('user_id'),
    notice: jsonb('notice'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** Why the last attempt did not go (Webex's words). */
    error: text('error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('webex_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('webex_deliveries_subject_idx').on(table.subject),
    index('webex_deliveries_failed_idx').on(table.userId, table.finishedAt),
  ],
);

/**
 * "One at a time" rules that must hold across instances (a user's task creation in the time tracker): a
 * row per held lock, with its holder and an expiry so a lock of a process that died frees itself.
 */
export const exclusiveLocks = pgTable('exclusive_locks', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Customer platform tokens, sealed (AES-256-GCM, see TokenVault) for the life of one job and deleted
 * when it ends. In their own table so a job's row never carries a copy in its older versions, and so a
 * sweep can delete any token no running job refers to. `key_id` names the key that sealed it.
 */
export const sealedTokens = pgTable('sealed_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  keyId: text('key_id').notNull(),
  sealed: text('sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * People's requests waiting for a customer's API budget, or reading many items, written by the instance that serves the request and
 * read by whichever instance the browser's poll reaches: until when, and for whom. A row whose instance died
 * stops being updated; one not updated for a few seconds counts as ended.
 */
export const budgetWaits = pgTable(
  'budget_waits',
  {
    userId: uuid('user_id').notNull(),
    requestId: text('request_id').notNull(),
    organizationName: text('organization_name'),
    /** False once the request has its slot (the row stays while it tells how far it read). */
    waiting: boolean('waiting').notNull().default(true),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** How far the request read ("rule" 140 of 380), when it reads many items. */
    readingNoun: text('reading_noun'),
    readingDone: integer('reading_done'),
    readingTotal: integer('reading_total'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.requestId] })],
);
