import { sql } from 'drizzle-orm';
import { bigserial, doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

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
