/**
 * The database's tables, one file per module in `schema/` (drizzle-kit reads them all through this file).
 * Migrations: change a table there, then `npm run db:generate -- --name <change>`.
 */
export * from './schema/identity.js';
export * from './schema/usage.js';
export * from './schema/shared-state.js';
export * from './schema/reports.js';
export * from './schema/change-sets.js';
export * from './schema/dashboards.js';
export * from './schema/tracker.js';
export * from './schema/support.js';
export * from './schema/backups.js';
export * from './schema/watches.js';
export * from './schema/customers.js';
export * from './schema/review.js';
