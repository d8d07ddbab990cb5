import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Binary content; PGlite and node-postgres both hand back bytes as a Uint8Array or Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Local accounts; emails are stored lower-cased. `locale` holds the role: the original product kept it
 * in its identity pool's `locale` attribute (spec section 6), single sign-on providers send it in that
 * claim by default (OIDC_ROLE_CLAIM), and no locale means the role User.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  locale: text('locale'),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  disabled: boolean('disabled').notNull().default(false),
  isDemo: boolean('is_demo').notNull().default(false),
  /** `issuer|sub` of the single sign-on identity this account belongs to; such accounts have no usable password. */
  ssoSubject: text('sso_subject').unique(),
  /** A Super User allowed the next SSO sign-in with this email to take over this password account. */
  ssoLinkAllowed: boolean('sso_link_allowed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Server-side sessions. The cookie carries a random secret; only its SHA-256 is stored, so a
 * database dump does not hand out live sessions.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** Names the session in Settings without revealing the secret. */
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    /** `password` or `sso`; SSO sessions also end the provider's session at sign-out. */
    method: text('method').notNull().default('password'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/** One row per thing a tool did; the dashboard counts them. `quantity` is 1 for counts, hours for time logged. */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tool: text('tool').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    team: text('team'),
    quantity: doublePrecision('quantity').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [index('usage_events_tool_idx').on(table.tool)],
);

/**
 * A sign-in that needs one more step (a new password). The cookie-less client holds the secret; only
 * its hash is stored, and it lives three minutes.
 */
export const authChallenges = pgTable('auth_challenges', {
  idHash: text('id_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One-time password-reset codes: stored hashed, 15 minutes, single use, a few attempts. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('password_reset_codes_user_idx').on(table.userId)],
);

/** Failed sign-ins per key (`account:<email>` or `address:<ip>`), for growing delays and temporary locks. */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  firstFailureAt: timestamp('first_failure_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

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
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Webex messages a job sends, recorded before each is sent (`sending`) and confirmed after (`sent`): a job
 * taken up again after a crash looks for a message still `sending` in Webex before sending it again.
 */
export const webexDeliveries = pgTable('webex_deliveries', {
  key: text('key').primaryKey(),
  toEmail: text('to_email').notNull(),
  /** SHA-256 of the markdown as sent (fitted to Webex's limit): how the message is recognised. */
  markdownSha256: text('markdown_sha256').notNull(),
  status: text('status').notNull(),
  messageId: text('message_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * "One at a time" rules that must hold across instances (a user's task creation in the time tracker): a
 * row per held lock, with its holder and an expiry so a lock of a process that died frees itself.
 */
export const exclusiveLocks = pgTable('exclusive_locks', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Security events (failed sign-ins, locks, resets); never a password or a code. */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    email: text('email'),
    userId: uuid('user_id'),
    ipAddress: text('ip_address'),
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('security_events_created_idx').on(table.createdAt)],
);

/** Administrative actions: who did what to whom, when. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_log_created_idx').on(table.createdAt)],
);

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
 * A report someone asked for. The customer's platform token is a sealed_tokens row that exists only
 * while the job can still run; `token_id` becomes null when it is deleted.
 */
export const reportRequests = pgTable(
  'report_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    organizationId: text('organization_id').notNull(),
    organizationName: text('organization_name').notNull(),
    accountGroups: jsonb('account_groups').$type<{ aid: string; accountGroupName: string }[]>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('queued'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    error: text('error'),
    tokenId: uuid('token_id').references(() => sealedTokens.id, { onDelete: 'set null' }),
    /** The queue job that should run it; recovery re-sends a queued report whose job is gone. */
    jobId: text('job_id'),
    /** Times a worker took it; a report that met platform faults is retried a few times, resuming its reads. */
    attempts: integer('attempts').notNull().default(0),
    deliveryStatus: text('delivery_status').notNull().default('pending'),
    deliveryError: text('delivery_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** A running report belongs to its worker until then; the worker renews it while it works. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Who holds the lease (an instance), and the claim's number: renewals and writes name both. */
    leaseOwner: text('lease_owner'),
    leaseGeneration: integer('lease_generation').notNull().default(0),
  },
  (table) => [index('report_requests_user_idx').on(table.userId, table.createdAt)],
);

/**
 * What a report's job already read from the platform (one row per GET answer), so a job that stops on
 * a fault resumes where it was instead of reading everything again. Deleted when the report ends.
 */
export const reportReads = pgTable(
  'report_reads',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reportRequests.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    body: jsonb('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.reportId, table.key] })],
);

/** The files a report produced, stored in the database (one storage for every instance). */
export const reportArtifacts = pgTable(
  'report_artifacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reportRequests.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('report_artifacts_report_idx').on(table.reportId)],
);

/**
 * A bulk run: a server job that performs many platform operations (create tests, delete agents,
 * label tests, invite users), paced by the organization's rate limit and resumable after a crash.
 */
export const bulkRuns = pgTable(
  'bulk_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    organizationId: text('organization_id').notNull(),
    organizationName: text('organization_name').notNull(),
    /** The request as validated (templates, groups, label, invitees...), without the token. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('queued'),
    /** Items are written once, by the first worker that plans the run. */
    planned: boolean('planned').notNull().default(false),
    error: text('error'),
    tokenId: uuid('token_id').references(() => sealedTokens.id, { onDelete: 'set null' }),
    jobId: text('job_id'),
    undoOf: uuid('undo_of'),
    undoneBy: uuid('undone_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    leaseOwner: text('lease_owner'),
    leaseGeneration: integer('lease_generation').notNull().default(0),
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

/**
 * A dashboard cloned into the community gallery: its definition as the platform gave it (read-only
 * fields removed), the names of the tests, agents and tags its widgets point at (a push maps them by name
 * in the target group), and the reviewer's decision.
 */
export const communityDashboards = pgTable(
  'community_dashboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceDashboardId: text('source_dashboard_id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    creatorEmail: text('creator_email').notNull(),
    organizationName: text('organization_name').notNull(),
    accountGroupName: text('account_group_name').notNull(),
    template: jsonb('template').$type<Record<string, unknown>>().notNull(),
    references: jsonb('references').$type<Record<string, { id: string; name: string }[]>>().notNull(),
    widgetCount: integer('widget_count').notNull(),
    status: text('status').notNull().default('pending'),
    reviewComment: text('review_comment'),
    reviewerEmail: text('reviewer_email'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('community_dashboards_created_idx').on(table.createdAt)],
);

/** A community dashboard's screenshots, re-encoded as PNG (never the uploaded bytes). */
export const communityDashboardImages = pgTable(
  'community_dashboard_images',
  {
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => communityDashboards.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: bytea('content').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
  },
  (table) => [primaryKey({ columns: [table.dashboardId, table.position] })],
);

/** One vote per user and dashboard. */
export const communityDashboardVotes = pgTable(
  'community_dashboard_votes',
  {
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => communityDashboards.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.dashboardId, table.userId] })],
);

export const communityDashboardReviews = pgTable(
  'community_dashboard_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => communityDashboards.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    authorEmail: text('author_email').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('community_dashboard_reviews_dashboard_idx').on(table.dashboardId, table.createdAt)],
);

/** Every push of a community dashboard into a customer's account group (also in the audit log). */
export const communityDashboardPushes = pgTable(
  'community_dashboard_pushes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => communityDashboards.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    organizationName: text('organization_name').notNull(),
    aid: text('aid').notNull(),
    accountGroupName: text('account_group_name').notNull(),
    /** Null while the push is `sending` (recorded before the dashboard is created). */
    createdDashboardId: text('created_dashboard_id'),
    mapped: integer('mapped').notNull(),
    dropped: integer('dropped').notNull(),
    /** The browser's key for one push: a repeated request answers the same push instead of pushing again. */
    pushKey: uuid('push_key').unique(),
    status: text('status').notNull().default('done'),
    /** Dashboards of that title in the target group before the push: never taken for the one it made. */
    knownIds: jsonb('known_ids').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('community_dashboard_pushes_dashboard_idx').on(table.dashboardId)],
);

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
