import { integer, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The columns every job table has (reports, bulk runs): its times, and its lease. A running job belongs to
 * its worker until `lease_until`, renewed while it works; `lease_owner` is the instance holding it and
 * `lease_generation` the claim's number, which renewals and writes name (see platform/lease.ts).
 */
export const jobColumns = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  leaseOwner: text('lease_owner'),
  leaseGeneration: integer('lease_generation').notNull().default(0),
});
