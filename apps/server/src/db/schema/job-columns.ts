import { integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.js';
import { sealedTokens } from './shared-state.js';

/**
 * The columns every job table has (reports, bulk runs): who asked for what for which organization, its
 * state, the sealed customer token while it may run, the queue job that should run it (recovery re-sends a
 * queued one whose queue job is gone), its times, and its lease. A running job belongs to its worker until
 * `lease_until`, renewed while it works; `lease_owner` is the instance holding it and `lease_generation` the
 * claim's number, which renewals and writes name (see platform/lease.ts).
 */
export const jobColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  organizationId: text('organization_id').notNull(),
  organizationName: text('organization_name').notNull(),
  status: text('status').notNull().default('queued'),
  error: text('error'),
  tokenId: uuid('token_id').references(() => sealedTokens.id, { onDelete: 'set null' }),
  jobId: text('job_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  leaseOwner: text('lease_owner'),
  leaseGeneration: integer('lease_generation').notNull().default(0),
});
