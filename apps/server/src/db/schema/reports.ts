import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { bytea } from './bytea.js';
import { jobColumns } from './job-columns.js';

/**
 * A report someone asked for. The customer's platform token is a sealed_tokens row that exists only
 * while the job can still run; `token_id` becomes null when it is deleted.
 */
export const reportRequests = pgTable(
  'report_requests',
  {
    ...jobColumns(),
    accountGroups: jsonb('account_groups').$type<{ aid: string; accountGroupName: string }[]>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** Times a worker took it; a report that met platform faults is retried a few times, resuming its reads. */
    attempts: integer('attempts').notNull().default(0),
    deliveryStatus: text('delivery_status').notNull().default('pending'),
    deliveryError: text('delivery_error'),
    /**
     * The watch run this health check is part of (decision 0031): not delivered on its own (the watch's message
     * says what changed), its platform calls audited with the watch's id. One report per run.
     */
    watchRunId: uuid('watch_run_id'),
    /**
     * A watch's duty this report is ("review-pack:<watch id>:<month>", decision 0031): unique, so a duty is
     * requested once whatever retries, runs or workers ask for it; null for any other report.
     */
    watchDuty: text('watch_duty'),
  },
  (table) => [
    index('report_requests_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('report_requests_watch_run_unique').on(table.watchRunId),
    uniqueIndex('report_requests_watch_duty_unique').on(table.watchDuty),
    // A customer's page reads one organization's reports by date.
    index('report_requests_organization_idx').on(table.organizationId, table.createdAt),
  ],
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
