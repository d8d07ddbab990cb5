import { and, eq } from 'drizzle-orm';
import { trackerHours, trackerResults } from '../../db/schema.js';
import type { Db } from '../../core/database.js';
import { deleteCreatedBefore } from '../../core/retention.js';

/** SQL for the time tracker's results files. */
export class TrackerRepository {
  constructor(private readonly db: Db) {}

  async saveResults(row: typeof trackerResults.$inferInsert): Promise<string> {
    const [saved] = await this.db.insert(trackerResults).values(row).returning({ id: trackerResults.id });
    if (!saved) throw new Error('insert returned no row');
    return saved.id;
  }

  async results(id: string, userId: string) {
    const [row] = await this.db
      .select()
      .from(trackerResults)
      .where(and(eq(trackerResults.id, id), eq(trackerResults.userId, userId)));
    return row;
  }

  /** The hours of the tasks a run created (a customer's page counts them through its linked engagements). */
  async recordHours(rows: (typeof trackerHours.$inferInsert)[]): Promise<void> {
    if (rows.length > 0) await this.db.insert(trackerHours).values(rows);
  }

  deleteOlderThan(date: Date): Promise<number> {
    return deleteCreatedBefore(this.db, trackerResults, date);
  }
}
