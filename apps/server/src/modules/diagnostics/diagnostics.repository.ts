import { and, eq } from 'drizzle-orm';
import { diagnosticRuns } from '../../db/schema.js';
import type { Db } from '../../core/database.js';
import { deleteCreatedBefore } from '../../core/retention.js';

/** SQL for diagnostic runs (their results; never a token). */
export class DiagnosticsRepository {
  constructor(private readonly db: Db) {}

  async start(userId: string): Promise<string> {
    const [row] = await this.db
      .insert(diagnosticRuns)
      .values({ userId, report: {} })
      .returning({ id: diagnosticRuns.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async finish(id: string, report: Record<string, unknown>): Promise<void> {
    await this.db.update(diagnosticRuns).set({ report }).where(eq(diagnosticRuns.id, id));
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(diagnosticRuns).where(eq(diagnosticRuns.id, id));
  }

  async find(id: string, userId: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await this.db
      .select({ report: diagnosticRuns.report })
      .from(diagnosticRuns)
      .where(and(eq(diagnosticRuns.id, id), eq(diagnosticRuns.userId, userId)));
    return row?.report;
  }

  deleteOlderThan(date: Date): Promise<number> {
    return deleteCreatedBefore(this.db, diagnosticRuns, date);
  }
}
