import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import type { CommunityDashboard } from '@ce/contract';
import { bytea } from './bytea.js';
import { users } from './identity.js';

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
    status: text('status').$type<CommunityDashboard['status']>().notNull().default('pending'),
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
    /** Null on pushes made before migration 0027 (the customer's page lists the ones that name it). */
    organizationId: text('organization_id'),
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
    /**
     * Which request's push this is: a request that finds the push cut short takes it over (the next attempt);
     * the earlier one, checked right before each write, then writes nothing more.
     */
    attempt: integer('attempt').notNull().default(1),
    /** When the current attempt began (the database's clock): a push is under way this long before another may take it. */
    attemptAt: timestamp('attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('community_dashboard_pushes_dashboard_idx').on(table.dashboardId),
    index('community_dashboard_pushes_organization_idx').on(table.organizationId, table.createdAt),
  ],
);
