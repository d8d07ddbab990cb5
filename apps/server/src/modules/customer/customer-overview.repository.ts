import { and, desc, eq, gt, gte, inArray, isNotNull } from 'drizzle-orm';
import { HEALTH_KINDS } from '@ce/contract';
import type { Db } from '../../core/database.js';
import { timelineWhere, type TimelineQuery } from '../../core/timeline.js';
import {
  backups,
  customerEngagements,
  reportArtifacts,
  reportRequests,
  trackerHours,
  users,
  watchRuns,
  watches,
  watchWaivers,
} from '../../db/schema.js';

/** The health check's findings file (the reports module writes it under this name). */
const FINDINGS_FILE = 'findings.json';

/** A watch run's mark, for the entry of the report or backup it started. */
export interface WatchMark {
  watchId: string;
  runId: string;
  trigger: string;
}

/**
 * SQL for a customer's page beyond its tools' own work: which entries a watch run made, the engagements linked to
 * the customer and the hours logged on them, its waivers, its latest health check, the drift its watches found.
 */
export class CustomerOverviewRepository {
  constructor(private readonly db: Db) {}

  /** The watch run behind each of these reports and backups (those a watch started), by `tool:id`. */
  async watchMarks(reportIds: string[], backupIds: string[]): Promise<Map<string, WatchMark>> {
    const marks = new Map<string, WatchMark>();
    const mark = { watchId: watchRuns.watchId, runId: watchRuns.id, trigger: watchRuns.trigger };
    const [reports, made] = await Promise.all([
      reportIds.length === 0
        ? []
        : this.db
            .select({ id: reportRequests.id, ...mark })
            .from(reportRequests)
            .innerJoin(watchRuns, eq(watchRuns.id, reportRequests.watchRunId))
            .where(inArray(reportRequests.id, reportIds)),
      backupIds.length === 0
        ? []
        : this.db
            .select({ id: backups.id, ...mark })
            .from(backups)
            .innerJoin(watchRuns, eq(watchRuns.id, backups.watchRunId))
            .where(inArray(backups.id, backupIds)),
    ]);
    for (const { id, ...row } of reports) marks.set(`reports:${id}`, row);
    for (const { id, ...row } of made) marks.set(`backups:${id}`, row);
    return marks;
  }

  engagements(organizationId: string) {
    return this.db
      .select({
        engagementId: customerEngagements.engagementId,
        linkedBy: users.email,
        createdAt: customerEngagements.createdAt,
      })
      .from(customerEngagements)
      .leftJoin(users, eq(users.id, customerEngagements.linkedBy))
      .where(eq(customerEngagements.organizationId, organizationId))
      .orderBy(customerEngagements.engagementId);
  }

  /** Links an engagement to the organization; answers the organization it is linked to when it already is one. */
  async link(organizationId: string, engagementId: string, userId: string): Promise<string> {
    await this.db
      .insert(customerEngagements)
      .values({ organizationId, engagementId, linkedBy: userId })
      .onConflictDoNothing({ target: customerEngagements.engagementId });
    const [row] = await this.db
      .select({ organizationId: customerEngagements.organizationId })
      .from(customerEngagements)
      .where(eq(customerEngagements.engagementId, engagementId));
    return row?.organizationId ?? organizationId;
  }

  async unlink(organizationId: string, engagementId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(customerEngagements)
      .where(
        and(eq(customerEngagements.organizationId, organizationId), eq(customerEngagements.engagementId, engagementId)),
      )
      .returning({ id: customerEngagements.id });
    return deleted.length > 0;
  }

  /** The hours logged on the organization's engagements in the period, newest first (its timeline's rows). */
  hours(query: TimelineQuery) {
    return this.db
      .select({ hours: trackerHours, name: users.name, email: users.email })
      .from(trackerHours)
      .innerJoin(customerEngagements, eq(customerEngagements.engagementId, trackerHours.engagementId))
      .innerJoin(users, eq(users.id, trackerHours.userId))
      .where(
        timelineWhere(query, {
          organizationId: customerEngagements.organizationId,
          createdAt: trackerHours.createdAt,
          userId: trackerHours.userId,
        }),
      )
      .orderBy(desc(trackerHours.createdAt))
      .limit(query.limit);
  }

  /** The waivers made for the organization in the period, newest first (its timeline's rows). */
  waiversMade(query: TimelineQuery) {
    return this.db
      .select({ waiver: watchWaivers, name: users.name, email: users.email })
      .from(watchWaivers)
      .innerJoin(users, eq(users.id, watchWaivers.createdBy))
      .where(
        timelineWhere(query, {
          organizationId: watchWaivers.organizationId,
          createdAt: watchWaivers.createdAt,
          userId: watchWaivers.createdBy,
        }),
      )
      .orderBy(desc(watchWaivers.createdAt))
      .limit(query.limit);
  }

  /** What the waivers in force of the organization waive. */
  waiversInForce(organizationId: string, now: Date) {
    return this.db
      .select({ checkId: watchWaivers.checkId, itemKey: watchWaivers.itemKey })
      .from(watchWaivers)
      .where(and(eq(watchWaivers.organizationId, organizationId), gt(watchWaivers.expiresAt, now)));
  }

  /** Whether the user owns a watch over the organization (tied to it, as its waivers need). */
  async watchesOrganization(userId: string, organizationId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: watches.id })
      .from(watches)
      .where(and(eq(watches.userId, userId), eq(watches.organizationId, organizationId)))
      .limit(1);
    return row !== undefined;
  }

  /**
   * The findings file of the organization's latest finished health check (of `userId`, or anyone's), with when it
   * ran and whether a watch's run made it; undefined before any.
   */
  async latestHealth(organizationId: string, userId: string | null) {
    const [row] = await this.db
      .select({
        reportId: reportRequests.id,
        createdAt: reportRequests.createdAt,
        watchRunId: reportRequests.watchRunId,
        content: reportArtifacts.content,
      })
      .from(reportRequests)
      .innerJoin(
        reportArtifacts,
        and(eq(reportArtifacts.reportId, reportRequests.id), eq(reportArtifacts.filename, FINDINGS_FILE)),
      )
      .where(
        and(
          eq(reportRequests.organizationId, organizationId),
          eq(reportRequests.status, 'done'),
          inArray(reportRequests.kind, [...HEALTH_KINDS]),
          userId ? eq(reportRequests.userId, userId) : undefined,
        ),
      )
      .orderBy(desc(reportRequests.createdAt))
      .limit(1);
    return row;
  }

  /** The kept changes of the organization's watch runs finished since `since` (of `userId`'s watches, or anyone's). */
  driftSince(organizationId: string, since: Date, userId: string | null) {
    return this.db
      .select({ changes: watchRuns.changes })
      .from(watchRuns)
      .where(
        and(
          eq(watchRuns.organizationId, organizationId),
          eq(watchRuns.status, 'done'),
          gte(watchRuns.createdAt, since),
          isNotNull(watchRuns.backups),
          userId ? eq(watchRuns.userId, userId) : undefined,
        ),
      );
  }
}
