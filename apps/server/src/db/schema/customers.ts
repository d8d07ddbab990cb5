import { doublePrecision, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * A time-tracker engagement linked to a customer organization, once, by a TAM (issue 59): the hours logged on it
 * count as the customer's on its page. One customer per engagement.
 */
export const customerEngagements = pgTable(
  'customer_engagements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: text('organization_id').notNull(),
    /** The engagement's id as the time tracker's sheet names it (its Engagement_ID column). */
    engagementId: text('engagement_id').notNull(),
    linkedBy: uuid('linked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customer_engagements_engagement_unique').on(table.engagementId),
    index('customer_engagements_organization_idx').on(table.organizationId),
  ],
);

/**
 * Hours the time tracker logged in the CRM (one row per task it created): what a customer's page counts through
 * the engagements linked to it. The CRM keeps the task; this keeps who, which engagement, which day, how long.
 */
export const trackerHours = pgTable(
  'tracker_hours',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    engagementId: text('engagement_id').notNull(),
    /** The row's due date (YYYY-MM-DD). */
    workDate: text('work_date').notNull(),
    hours: doublePrecision('hours').notNull(),
    /** The CRM's task id. */
    taskId: text('task_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('tracker_hours_engagement_idx').on(table.engagementId, table.createdAt)],
);
