import { and, desc, eq, gt, isNotNull, isNull, sql, type AnyColumn } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../core/database.js';
import { reportRequests, users, watchRuns, watches, watchWaivers } from '../../db/schema.js';
import type { Waived } from './watch-findings.js';
import type { PackRow } from './watch-packs.js';

/** A finished run as My customers reads it. */
export interface LatestRun {
  score: number | null;
  /** Drift lines the run's backups found; null when the run took no backups. */
  drift: number | null;
  finishedAt: Date | null;
  createdAt: Date;
}

export type WaiverRow = typeof watchWaivers.$inferSelect & { createdByEmail: string | null };

const regressionRowsSchema = z.object({
  rows: z.array(z.object({ organization_id: z.string(), title: z.string() })),
});

const latestRunRowsSchema = z.object({
  rows: z.array(
    z.object({
      organization_id: z.string(),
      runs: z.array(
        z.object({
          score: z.number().nullable(),
          drift: z.number().nullable(),
          finishedAt: z.string().nullable(),
          createdAt: z.string(),
        }),
      ),
    }),
  ),
});

/**
 * `column = any($1)`: a list of ids bound as one array parameter. A Super User's My customers may read tens of thousands
 * of watches; one parameter per id (`in (...)`) fails past PostgreSQL's 65,535 bind parameters.
 */
const anyOf = (column: AnyColumn | ReturnType<typeof sql.raw>, values: readonly string[], type: 'uuid' | 'text') =>
  sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])`;

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
      .where(and(anyOf(watchWaivers.organizationId, organizationIds, 'text'), gt(watchWaivers.expiresAt, now)));
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
      .where(anyOf(watches.id, watchIds, 'uuid'));
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
      .where(anyOf(users.id, userIds, 'uuid'));
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /**
   * The latest finished runs of these watches (at most RUNS_PER_ORGANIZATION per organization), newest first, by
   * organization: each watch's latest few read from its index (a LATERAL join), so the cost follows what is shown, not
   * the history kept. Only what My customers shows leaves the database, one row per watch: the score, when, and how
   * many drift lines a run that took backups kept (counted in SQL; null for a run without backups).
   */
  async latestRuns(watchIds: string[]): Promise<Map<string, LatestRun[]>> {
    if (watchIds.length === 0) return new Map();
    const result = await this.db.execute(sql`
      select watch.organization_id, latest.runs
      from ${watches} watch
        cross join lateral (
          select coalesce(json_agg(json_build_object('score', run.score, 'finishedAt', run.finished_at,
            'createdAt', run.created_at, 'drift', run.drift) order by run.created_at desc), '[]'::json) as runs
          from (
            select score, finished_at, created_at,
              case when backups is null then null
                when jsonb_typeof(changes -> 'drift') = 'array' then jsonb_array_length(changes -> 'drift')
                else 0 end as drift
            from ${watchRuns}
            where watch_id = watch.id and status = 'done'
            order by created_at desc
            limit ${RUNS_PER_ORGANIZATION}
          ) run
        ) latest
      where ${anyOf(sql.raw('watch.id'), watchIds, 'uuid')}`);
    const byOrganization = new Map<string, LatestRun[]>();
    for (const row of latestRunRowsSchema.parse(result).rows) {
      const runs = row.runs.map((run) => ({
        score: run.score,
        drift: run.drift,
        finishedAt: run.finishedAt === null ? null : new Date(run.finishedAt),
        createdAt: new Date(run.createdAt),
      }));
      const before = byOrganization.get(row.organization_id);
      // An organization watched twice: its watches' runs together, newest first, as many as one watch gives.
      byOrganization.set(
        row.organization_id,
        before
          ? [...before, ...runs]
              .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())
              .slice(0, RUNS_PER_ORGANIZATION)
          : runs,
      );
    }
    return byOrganization;
  }

  /**
   * The checks that went from passing to warning or failing since `since`, once per organization and check title
   * (every watched organization): unnested and deduplicated in SQL, so a week of runs comes back as its regressions.
   */
  async regressionsSince(since: Date): Promise<{ organizationId: string; title: string }[]> {
    const result = await this.db.execute(sql`
      select distinct run.organization_id, check_change ->> 'title' as title
      from ${watchRuns} run
        cross join lateral jsonb_array_elements(
          case when jsonb_typeof(run.changes -> 'checks') = 'array' then run.changes -> 'checks' else '[]'::jsonb end
        ) check_change
      where run.status = 'done' and run.created_at >= ${since}
        and check_change ->> 'before' = 'pass' and check_change ->> 'after' in ('warn', 'fail')
        and jsonb_typeof(check_change -> 'title') = 'string'`);
    return regressionRowsSchema
      .parse(result)
      .rows.map((row) => ({ organizationId: row.organization_id, title: row.title }));
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
          anyOf(reportRequests.organizationId, organizationIds, 'text'),
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
      .where(anyOf(watches.id, watchIds, 'uuid'));
    const newest = new Map<string, { measurements: unknown; createdAt: Date }>();
    for (const row of rows) {
      const kept = newest.get(row.organizationId);
      if (!kept || row.createdAt > kept.createdAt) newest.set(row.organizationId, row);
    }
    return new Map([...newest].map(([organizationId, row]) => [organizationId, row.measurements]));
  }
}
