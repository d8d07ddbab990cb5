import { sql } from 'drizzle-orm';
import { bigserial, boolean, doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Local accounts. `locale` holds the role (spec section 6); emails are stored lower-cased. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  locale: text('locale'),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  disabled: boolean('disabled').notNull().default(false),
  isDemo: boolean('is_demo').notNull().default(false),
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
