import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import { HEALTH_KINDS } from '@ce/contract';
import type { Db } from '../../core/database.js';
import {
  customerEngagements,
  reportArtifacts,
  reportRequests,
  reviewNarratives,
  trackerHours,
  users,
  watchRuns,
  watchWaivers,
  watches,
} from '../../db/schema.js';

/** The file a health check keeps its findings in (the health kinds' `FINDINGS_FILE`). */
const FINDINGS_FILE = 'findings.json';

/** Whose stored work a pack reads: the organization, the period up to the cut-off, and one person's or everyone's. */
export interface StoredScope {
  organizationId: string;
  from: Date;
  until: Date;
  /** The requester's own watches and work (their id), or everyone's (null). */
  userId: string | null;
}

/** What a review pack reads from the database: the watches' runs, the health checks, the hours and the narrative. */
export class ReviewRepository {
  constructor(private readonly db: Db) {}

  /** The finished watch runs over the organization made in the period up to the cut-off that kept measurements. */
  measuredRuns(scope: StoredScope) {
    return this.db
      .select({ createdAt: watchRuns.createdAt, measurements: watchRuns.measurements })
      .from(watchRuns)
      .where(
        and(
          eq(watchRuns.organizationId, scope.organizationId),
          eq(watchRuns.status, 'done'),
          isNotNull(watchRuns.measurements),
          gte(watchRuns.createdAt, scope.from),
          lte(watchRuns.createdAt, scope.until),
          scope.userId ? eq(watchRuns.userId, scope.userId) : undefined,
        ),
      )
      .orderBy(asc(watchRuns.createdAt));
  }

  /**
   * The organization's name as the toolkit last recorded it: the newest watch run over it, else a watch over it, else
   * the newest report about it; null when no record names it (an id nobody worked on).
   */
  async organizationName(organizationId: string): Promise<string | null> {
    const [run] = await this.db
      .select({ name: watchRuns.organizationName })
      .from(watchRuns)
      .where(eq(watchRuns.organizationId, organizationId))
      .orderBy(desc(watchRuns.createdAt))
      .limit(1);
    if (run?.name) return run.name;
    const [watch] = await this.db
      .select({ name: watches.organizationName })
      .from(watches)
      .where(eq(watches.organizationId, organizationId))
      .orderBy(desc(watches.createdAt))
      .limit(1);
    if (watch?.name) return watch.name;
    const [report] = await this.db
      .select({ name: reportRequests.organizationName })
      .from(reportRequests)
      .where(eq(reportRequests.organizationId, organizationId))
      .orderBy(desc(reportRequests.createdAt))
      .limit(1);
    return report?.name || null;
  }

  /** The findings files of the organization's health checks finished in the period up to the cut-off, oldest first. */
  healthChecks(scope: StoredScope) {
    return this.db
      .select({ createdAt: reportRequests.createdAt, content: reportArtifacts.content })
      .from(reportRequests)
      .innerJoin(
        reportArtifacts,
        and(eq(reportArtifacts.reportId, reportRequests.id), eq(reportArtifacts.filename, FINDINGS_FILE)),
      )
      .where(
        and(
          eq(reportRequests.organizationId, scope.organizationId),
          eq(reportRequests.status, 'done'),
          inArray(reportRequests.kind, [...HEALTH_KINDS]),
          gte(reportRequests.createdAt, scope.from),
          lte(reportRequests.createdAt, scope.until),
          scope.userId ? eq(reportRequests.userId, scope.userId) : undefined,
        ),
      )
      .orderBy(asc(reportRequests.createdAt));
  }

  /** What the organization's waivers in force at the cut-off waive. */
  waiversAt(organizationId: string, at: Date) {
    return this.db
      .select({ checkId: watchWaivers.checkId, itemKey: watchWaivers.itemKey })
      .from(watchWaivers)
      .where(
        and(
          eq(watchWaivers.organizationId, organizationId),
          lte(watchWaivers.createdAt, at),
          gt(watchWaivers.expiresAt, at),
        ),
      );
  }

  /** The hours logged on the organization's engagements in the period up to the cut-off (as its page counts them). */
  async hours(scope: StoredScope): Promise<number> {
    const rows = await this.db
      .select({ hours: trackerHours.hours })
      .from(trackerHours)
      .innerJoin(customerEngagements, eq(customerEngagements.engagementId, trackerHours.engagementId))
      .where(
        and(
          eq(customerEngagements.organizationId, scope.organizationId),
          gte(trackerHours.createdAt, scope.from),
          lte(trackerHours.createdAt, scope.until),
          scope.userId ? eq(trackerHours.userId, scope.userId) : undefined,
        ),
      );
    return rows.reduce((sum, row) => sum + row.hours, 0);
  }

  /** Whether the user owns a watch over the organization (what ties them to it, with its token or a Super User's role). */
  async watchesOrganization(userId: string, organizationId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: watches.id })
      .from(watches)
      .where(and(eq(watches.userId, userId), eq(watches.organizationId, organizationId)))
      .limit(1);
    return row !== undefined;
  }

  /** A person's name (or email) by id; null for none. */
  async personName(userId: string | null): Promise<string | null> {
    if (!userId) return null;
    const [row] = await this.db
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    return row ? (row.name ?? row.email) : null;
  }

  async narrative(organizationId: string) {
    const [row] = await this.db
      .select()
      .from(reviewNarratives)
      .where(eq(reviewNarratives.organizationId, organizationId))
      .orderBy(desc(reviewNarratives.updatedAt))
      .limit(1);
    return row;
  }

  /** Saves the organization's narrative over the one kept (one row per organization). */
  async saveNarrative(organizationId: string, narrative: Record<string, unknown>, userId: string | null, at: Date) {
    const [row] = await this.db
      .insert(reviewNarratives)
      .values({ organizationId, narrative, updatedBy: userId, updatedAt: at })
      .onConflictDoUpdate({
        target: reviewNarratives.organizationId,
        set: { narrative, updatedBy: userId, updatedAt: at },
      })
      .returning();
    return row;
  }
}
