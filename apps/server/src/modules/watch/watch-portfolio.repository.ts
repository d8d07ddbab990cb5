import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { reportRequests, users, watchRuns, watches, watchWaivers } from '../../db/schema.js';
import type { Waived } from './watch-findings.js';
import type { PackRow } from './watch-packs.js';

export type WaiverRow = typeof watchWaivers.$inferSelect & { createdByEmail: string | null };

/** "My customers" reads this many of the latest finished runs per organization. */
const RUNS_PER_ORGANIZATION = 8;

/** SQL for waivers and the portfolio of watched organizations. */
export class WatchPortfolioRepository {
  constructor(private readonly db: Db) {}

  async waivers(organizationId: string, now: Date): Promise<WaiverRow[]> {
    const rows = await this.db
      .select({ waiver: watchWaivers, createdByEmail: users.email })
      .from(watchWaivers)
      .leftJoin(users, eq(users.id, watchWaivers.createdBy))
      .where(and(eq(watchWaivers.organizationId, organizationId), gt(watchWaivers.expiresAt, now)))
      .orderBy(desc(watchWaivers.createdAt));
    return rows.map(({ waiver, createdByEmail }) => ({ ...waiver, createdByEmail }));
  }

  async findWaiver(id: string): Promise<typeof watchWaivers.$inferSelect | undefined> {
    const [row] = await this.db.select().from(watchWaivers).where(eq(watchWaivers.id, id));
    return row;
  }

  /** Whether the user owns a watch over the organization. */
  async watchesOrganization(userId: string, organizationId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: watches.id })
      .from(watches)
      .where(and(eq(watches.userId, userId), eq(watches.organizationId, organizationId)))
      .limit(1);
    return row !== undefined;
  }

  /** The ids of every watch over an organization, whoever owns it. */
  async watchIdsOf(organizationId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: watches.id })
      .from(watches)
      .where(eq(watches.organizationId, organizationId));
    return rows.map((row) => row.id);
  }

  async deleteWaiver(id: string): Promise<typeof watchWaivers.$inferSelect | undefined> {
    const [deleted] = await this.db.delete(watchWaivers).where(eq(watchWaivers.id, id)).returning();
    return deleted;
  }

  /** The waivers in force of these organizations (what each waives), by organization. */
  async waiversOf(organizationIds: string[], now: Date): Promise<Map<string, Waived[]>> {
    if (organizationIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        organizationId: watchWaivers.organizationId,
        checkId: watchWaivers.checkId,
        itemKey: watchWaivers.itemKey,
      })
      .from(watchWaivers)
      .where(and(inArray(watchWaivers.organizationId, organizationIds), gt(watchWaivers.expiresAt, now)));
    const byOrganization = new Map<string, Waived[]>();
    for (const { organizationId, ...waiver } of rows)
      byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), waiver]);
    return byOrganization;
  }

  /**
   * The kept findings of the latest run with a health check of these watches, per organization: each watch's latest
   * (one row of an index, whatever its history), the newest of them per organization.
   */
  async latestFindings(watchIds: string[]): Promise<Map<string, unknown>> {
    if (watchIds.length === 0) return new Map();
    const latest = this.db
      .select({
        organizationId: watchRuns.organizationId,
        findings: watchRuns.findings,
        createdAt: watchRuns.createdAt,
      })
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watches.id), eq(watchRuns.status, 'done'), isNotNull(watchRuns.findings)))
      .orderBy(desc(watchRuns.createdAt))
      .limit(1)
      .as('latest');
    const rows = await this.db
      .select({ organizationId: latest.organizationId, findings: latest.findings, createdAt: latest.createdAt })
      .from(watches)
      .crossJoinLateral(latest)
      .where(inArray(watches.id, watchIds));
    const newest = new Map<string, { findings: unknown; createdAt: Date }>();
    for (const row of rows) {
      const kept = newest.get(row.organizationId);
      if (!kept || row.createdAt > kept.createdAt) newest.set(row.organizationId, row);
    }
    return new Map([...newest].map(([organizationId, row]) => [organizationId, row.findings]));
  }

  /**
   * Inserts a waiver unless the organization already waives that finding, or has `max` waivers in force: counted in
   * SQL (the organization's index) under a lock of that organization's waivers, so two at once cannot pass the cap.
   */
  async insertWaiverWithin(
    row: typeof watchWaivers.$inferInsert & { expiresAt: Date; createdAt: Date },
    max: number,
  ): Promise<{ created: typeof watchWaivers.$inferSelect } | { refused: 'already_waived' | 'too_many' }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`watch_waivers:${row.organizationId}`}, 0))`,
      );
      const inForce = and(
        eq(watchWaivers.organizationId, row.organizationId),
        gt(watchWaivers.expiresAt, row.createdAt),
      );
      const [same] = await tx
        .select({ id: watchWaivers.id })
        .from(watchWaivers)
        .where(
          and(
            inForce,
            eq(watchWaivers.checkId, row.checkId),
            row.itemKey == null ? isNull(watchWaivers.itemKey) : eq(watchWaivers.itemKey, row.itemKey),
          ),
        )
        .limit(1);
      if (same) return { refused: 'already_waived' as const };
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(watchWaivers)
        .where(inForce);
      if (Number(counted?.n ?? 0) >= max) return { refused: 'too_many' as const };
      const [created] = await tx.insert(watchWaivers).values(row).returning();
      if (!created) throw new Error('insert returned no row');
      return { created };
    });
  }

  /** The watches of one user, or everyone's. */
  watches(userId?: string) {
    return this.db
      .select()
      .from(watches)
      .where(userId ? eq(watches.userId, userId) : undefined);
  }

  /** The email addresses of these users, by id. */
  async emailsOf(userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, userIds));
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /**
   * The latest finished runs of these watches (at most RUNS_PER_ORGANIZATION per organization), newest first: each
   * watch's latest few read from its index (a LATERAL join), so the cost follows what is shown, not the history kept.
   */
  async latestRuns(watchIds: string[]) {
    if (watchIds.length === 0) return [];
    const latest = this.db
      .select({
        organizationId: watchRuns.organizationId,
        score: watchRuns.score,
        backups: watchRuns.backups,
        changes: watchRuns.changes,
        finishedAt: watchRuns.finishedAt,
        createdAt: watchRuns.createdAt,
      })
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watches.id), eq(watchRuns.status, 'done')))
      .orderBy(desc(watchRuns.createdAt))
      .limit(RUNS_PER_ORGANIZATION)
      .as('latest');
    const rows = await this.db
      .select({
        organizationId: latest.organizationId,
        score: latest.score,
        backups: latest.backups,
        changes: latest.changes,
        finishedAt: latest.finishedAt,
        createdAt: latest.createdAt,
      })
      .from(watches)
      .crossJoinLateral(latest)
      .where(inArray(watches.id, watchIds));
    // By organization, newest first, as many as the portfolio shows.
    const sorted = rows.sort(
      (a, b) => a.organizationId.localeCompare(b.organizationId) || b.createdAt.getTime() - a.createdAt.getTime(),
    );
    const kept = new Map<string, number>();
    return sorted.filter((row) => {
      const count = (kept.get(row.organizationId) ?? 0) + 1;
      kept.set(row.organizationId, count);
      return count <= RUNS_PER_ORGANIZATION;
    });
  }

  /** The checks that went from passing to not passing since `since`, by organization (every watched one). */
  async regressionsSince(since: Date): Promise<{ organizationId: string; checks: unknown }[]> {
    return this.db
      .select({ organizationId: watchRuns.organizationId, checks: sql<unknown>`${watchRuns.changes} -> 'checks'` })
      .from(watchRuns)
      .where(and(eq(watchRuns.status, 'done'), gte(watchRuns.createdAt, since)));
  }

  /**
   * Each organization's finished report of `kind` with the latest period (`options.period.to`), the newest of those:
   * of `userId`'s reports, or anyone's. One row per organization, read from the organization's index.
   */
  async latestPacks(kind: string, organizationIds: string[], userId?: string): Promise<Map<string, PackRow>> {
    if (organizationIds.length === 0) return new Map();
    const periodEnd = sql`${reportRequests.options} -> 'period' ->> 'to'`;
    const rows = await this.db
      .selectDistinctOn([reportRequests.organizationId], {
        organizationId: reportRequests.organizationId,
        id: reportRequests.id,
        options: reportRequests.options,
        finishedAt: reportRequests.finishedAt,
        createdAt: reportRequests.createdAt,
      })
      .from(reportRequests)
      .where(
        and(
          inArray(reportRequests.organizationId, organizationIds),
          eq(reportRequests.kind, kind),
          eq(reportRequests.status, 'done'),
          isNotNull(periodEnd),
          userId ? eq(reportRequests.userId, userId) : undefined,
        ),
      )
      .orderBy(reportRequests.organizationId, desc(periodEnd), desc(reportRequests.createdAt));
    return new Map(rows.map(({ organizationId, ...row }) => [organizationId, row]));
  }

  /** The measurements of the latest run that kept them of these watches, per organization (newest of its watches). */
  async latestMeasurements(watchIds: string[]): Promise<Map<string, unknown>> {
    if (watchIds.length === 0) return new Map();
    const latest = this.db
      .select({
        organizationId: watchRuns.organizationId,
        measurements: watchRuns.measurements,
        createdAt: watchRuns.createdAt,
      })
      .from(watchRuns)
      .where(and(eq(watchRuns.watchId, watches.id), eq(watchRuns.status, 'done'), isNotNull(watchRuns.measurements)))
      .orderBy(desc(watchRuns.createdAt))
      .limit(1)
      .as('latest');
    const rows = await this.db
      .select({ organizationId: latest.organizationId, measurements: latest.measurements, createdAt: latest.createdAt })
      .from(watches)
      .crossJoinLateral(latest)
      .where(inArray(watches.id, watchIds));
    const newest = new Map<string, { measurements: unknown; createdAt: Date }>();
    for (const row of rows) {
      const kept = newest.get(row.organizationId);
      if (!kept || row.createdAt > kept.createdAt) newest.set(row.organizationId, row);
    }
    return new Map([...newest].map(([organizationId, row]) => [organizationId, row.measurements]));
  }
}
