import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';
import { users } from './identity.js';

/**
 * What only a person writes in a customer's review pack (goals, highlights, next steps with owners), kept per
 * organization so the next pack starts from it (decision 0038). One row per organization, overwritten when saved.
 */
export const reviewNarratives = pgTable('review_narratives', {
  organizationId: text('organization_id').primaryKey(),
  /** The contract's reviewNarrativeSchema. */
  narrative: jsonb('narrative').$type<Record<string, unknown>>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
