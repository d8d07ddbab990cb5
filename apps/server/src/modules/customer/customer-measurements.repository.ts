import { and, asc, eq, gte, isNotNull } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { watchRuns } from '../../db/schema.js';

/** The measurements the watch runs over a customer kept (decision 0037): what its page's trends are drawn from. */
export class CustomerMeasurementsRepository {
  constructor(private readonly db: Db) {}

  /** The finished runs over the organization since `since` that kept measurements (of `userId`'s watches, or anyone's), oldest first. */
  runs(organizationId: string, since: Date, userId: string | null) {
    return this.db
      .select({ watchId: watchRuns.watchId, createdAt: watchRuns.createdAt, measurements: watchRuns.measurements })
      .from(watchRuns)
      .where(
        and(
          eq(watchRuns.organizationId, organizationId),
          eq(watchRuns.status, 'done'),
          isNotNull(watchRuns.measurements),
          gte(watchRuns.createdAt, since),
          userId ? eq(watchRuns.userId, userId) : undefined,
        ),
      )
      .orderBy(asc(watchRuns.createdAt));
  }
}
