import { sql } from 'drizzle-orm';
import type { UsageTool } from '@ce/contract';
import type { Db } from '../../core/database.js';
import { usageEvents } from '../../db/schema.js';

export interface UsageTotal {
  tool: string;
  team: string | null;
  total: number;
}

export class UsageRepository {
  constructor(private readonly db: Db) {}

  async record(event: {
    tool: UsageTool;
    userId: string | null;
    team?: string | null;
    quantity?: number;
  }): Promise<void> {
    await this.db.insert(usageEvents).values({
      tool: event.tool,
      userId: event.userId,
      team: event.team ?? null,
      quantity: event.quantity ?? 1,
    });
  }

  /** Sums per tool and team in one query. */
  async totals(): Promise<UsageTotal[]> {
    return this.db
      .select({
        tool: usageEvents.tool,
        team: usageEvents.team,
        total: sql<number>`coalesce(sum(${usageEvents.quantity}), 0)::float8`,
      })
      .from(usageEvents)
      .groupBy(usageEvents.tool, usageEvents.team);
  }
}
