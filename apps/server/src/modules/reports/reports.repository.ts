import { and, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { roleFromLocale, type SessionUser } from '@ce/contract';
import type { ReadJournal } from '@ce/platform-client';
import type { Db } from '../../core/database.js';
import { Leases } from '../../core/lease.js';
import { timelineWhere, type TimelineQuery } from '../../core/timeline.js';
import { reportArtifacts, reportReads, reportRequests, users } from '../../db/schema.js';
import type { ReportArtifactFile } from './report-generator.js';
import { emailOf } from '../../core/requester.js';

export type ReportRow = typeof reportRequests.$inferSelect;
export type ArtifactSummary = { id: string; reportId: string; filename: string; contentType: string; size: number };
/** A watch run's health check: where it stands and its steps. */
export type WatchRunReportRow = Pick<ReportRow, 'id' | 'watchRunId' | 'status' | 'progressDone' | 'progressTotal'>;

/** SQL for report requests, their files and the reads of their jobs. */
export class ReportsRepository {
  /** Claims count the attempts: a report that meets platform faults is taken up a few times at most. */
  readonly leases: Leases<typeof reportRequests>;

  constructor(private readonly db: Db) {
    this.leases = new Leases(db, reportRequests, () => ({ attempts: sql`${reportRequests.attempts} + 1` }));
  }

  /** Inserts a request and its sealed token in one transaction: neither exists without the other. */
  async insert(
    row: Omit<typeof reportRequests.$inferInsert, 'tokenId'>,
    sealToken: (tx: Pick<Db, 'insert'>) => Promise<string>,
  ): Promise<ReportRow> {
    return this.db.transaction(async (tx) => {
      const tokenId = await sealToken(tx);
      const [created] = await tx
        .insert(reportRequests)
        .values({ ...row, tokenId })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return created;
    });
  }

  /**
   * Inserts a watch run's report and its sealed token in one transaction, unless the run has one already (the
   * unique watch_run_id): answers the row, or undefined when another insert won.
   */
  async insertOnce(
    row: Omit<typeof reportRequests.$inferInsert, 'tokenId'>,
    sealToken: (tx: Db) => Promise<string>,
  ): Promise<ReportRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(reportRequests).values(row).onConflictDoNothing().returning();
      if (!created) return undefined;
      const tokenId = await sealToken(tx);
      await tx.update(reportRequests).set({ tokenId }).where(eq(reportRequests.id, created.id));
      return { ...created, tokenId };
    });
  }

  async findByWatchRun(watchRunId: string): Promise<ReportRow | undefined> {
    const [row] = await this.db.select().from(reportRequests).where(eq(reportRequests.watchRunId, watchRunId));
    return row;
  }

  async ofWatchRuns(watchRunIds: string[]): Promise<WatchRunReportRow[]> {
    if (watchRunIds.length === 0) return [];
    return this.db
      .select({
        id: reportRequests.id,
        watchRunId: reportRequests.watchRunId,
        status: reportRequests.status,
        progressDone: reportRequests.progressDone,
        progressTotal: reportRequests.progressTotal,
      })
      .from(reportRequests)
      .where(inArray(reportRequests.watchRunId, watchRunIds));
  }

  /** A report's first file whose name `matches`. */
  async artifactNamed(reportId: string, matches: (filename: string) => boolean) {
    const names = await this.artifactsOf([reportId]);
    const found = names.find((artifact) => matches(artifact.filename));
    return found ? this.artifact(reportId, found.id) : undefined;
  }

  async find(id: string): Promise<ReportRow | undefined> {
    const [row] = await this.db.select().from(reportRequests).where(eq(reportRequests.id, id));
    return row;
  }

  /** The newest requests, of one user (or everyone's) and of the given kinds only. */
  async list(options: {
    userId?: string;
    kinds: readonly string[];
    limit: number;
  }): Promise<(ReportRow & { requestedBy: string })[]> {
    if (options.kinds.length === 0) return [];
    const rows = await this.db
      .select({ report: reportRequests, requestedBy: users.email })
      .from(reportRequests)
      .innerJoin(users, eq(users.id, reportRequests.userId))
      .where(
        and(
          options.userId ? eq(reportRequests.userId, options.userId) : sql`true`,
          inArray(reportRequests.kind, [...options.kinds]),
        ),
      )
      .orderBy(desc(reportRequests.createdAt))
      .limit(options.limit);
    return rows.map((row) => ({ ...row.report, requestedBy: row.requestedBy }));
  }

  /** One organization's reports for its page, newest first, with their owners. */
  async timeline(query: TimelineQuery, kinds: readonly string[]) {
    return this.db
      .select({ report: reportRequests, name: users.name, email: users.email })
      .from(reportRequests)
      .innerJoin(users, eq(users.id, reportRequests.userId))
      .where(and(timelineWhere(query, reportRequests), inArray(reportRequests.kind, [...kinds])))
      .orderBy(desc(reportRequests.createdAt))
      .limit(query.limit);
  }

  /**
   * The user's reports that ended after `since` having failed, or made but not delivered (delivery is
   * tried before a report is marked done, so `finished_at` dates both); newest first; of `kinds` when given.
   */
  async problemsSince(userId: string, since: Date, limit: number, kinds?: readonly string[]): Promise<ReportRow[]> {
    return this.db
      .select()
      .from(reportRequests)
      .where(
        and(
          eq(reportRequests.userId, userId),
          gt(reportRequests.finishedAt, since),
          or(eq(reportRequests.status, 'failed'), eq(reportRequests.deliveryStatus, 'failed')),
          kinds ? inArray(reportRequests.kind, [...kinds]) : undefined,
        ),
      )
      .orderBy(desc(reportRequests.createdAt))
      .limit(limit);
  }

  /** How many of the user's reports (of `kinds` when given) are queued or running (delivery is part of running). */
  activeCount(userId: string, kinds?: readonly string[]): Promise<number> {
    return this.leases.activeCount(userId, kinds ? [...kinds] : undefined);
  }

  /** The requester as a session of theirs would be (their role), or null once their account is gone. */
  async requester(userId: string): Promise<SessionUser | null> {
    const [row] = await this.db
      .select({ id: users.id, email: users.email, name: users.name, locale: users.locale })
      .from(users)
      .where(eq(users.id, userId));
    return row ? { ...row, role: roleFromLocale(row.locale) } : null;
  }

  requesterEmail(userId: string): Promise<string> {
    return emailOf(this.db, userId);
  }

  update(id: string, changes: Partial<typeof reportRequests.$inferInsert>): Promise<void> {
    return this.leases.update(id, changes);
  }

  /** A report's messages ended after the report did (the retries sent them, or gave them up). */
  async deliveryEnded(id: string, status: 'delivered' | 'failed', error: string | null): Promise<void> {
    await this.db
      .update(reportRequests)
      .set({ deliveryStatus: status, deliveryError: error })
      .where(and(eq(reportRequests.id, id), eq(reportRequests.deliveryStatus, 'pending')));
  }

  /** Deletes finished reports (and their files) created before `before`; returns how many. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(reportRequests)
      .where(and(inArray(reportRequests.status, ['done', 'failed']), lt(reportRequests.createdAt, before)))
      .returning({ id: reportRequests.id });
    return deleted.length;
  }

  async artifactsOf(reportIds: string[]): Promise<ArtifactSummary[]> {
    if (reportIds.length === 0) return [];
    return this.db
      .select({
        id: reportArtifacts.id,
        reportId: reportArtifacts.reportId,
        filename: reportArtifacts.filename,
        contentType: reportArtifacts.contentType,
        size: reportArtifacts.size,
      })
      .from(reportArtifacts)
      .where(inArray(reportArtifacts.reportId, reportIds))
      .orderBy(reportArtifacts.filename);
  }

  async artifact(reportId: string, artifactId: string) {
    const [row] = await this.db
      .select()
      .from(reportArtifacts)
      .where(and(eq(reportArtifacts.id, artifactId), eq(reportArtifacts.reportId, reportId)));
    return row;
  }

  /** The file `filename` of the finished reports of `kind` for the organization made before `before`, newest first. */
  async earlierArtifacts(
    kind: string,
    organizationId: string,
    filename: string,
    before: Date,
    limit: number,
  ): Promise<{ createdAt: Date; content: Buffer }[]> {
    return this.db
      .select({ createdAt: reportRequests.createdAt, content: reportArtifacts.content })
      .from(reportArtifacts)
      .innerJoin(reportRequests, eq(reportRequests.id, reportArtifacts.reportId))
      .where(
        and(
          eq(reportRequests.kind, kind),
          eq(reportRequests.organizationId, organizationId),
          eq(reportRequests.status, 'done'),
          lt(reportRequests.createdAt, before),
          eq(reportArtifacts.filename, filename),
        ),
      )
      .orderBy(desc(reportRequests.createdAt))
      .limit(limit);
  }

  /**
   * Replaces a report's files (a job run again after a crash writes them anew), in one transaction: the
   * report job's fenced write (HeldJob.fenced), so a worker that lost its lease writes none of them.
   */
  async replaceArtifacts(reportId: string, files: ReportArtifactFile[], db: Db = this.db): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.delete(reportArtifacts).where(eq(reportArtifacts.reportId, reportId));
      if (files.length) {
        await tx.insert(reportArtifacts).values(
          files.map((file) => ({
            reportId,
            filename: file.filename,
            contentType: file.contentType,
            content: file.content,
            size: file.content.length,
          })),
        );
      }
    });
  }

  /** The platform answers this report's jobs already read (see ReadJournal). */
  journal(reportId: string): ReadJournal {
    return {
      get: async (key) => {
        const [row] = await this.db
          .select({ body: reportReads.body })
          .from(reportReads)
          .where(and(eq(reportReads.reportId, reportId), eq(reportReads.key, key)));
        return row ? { body: row.body ?? undefined } : undefined;
      },
      put: async (key, body) => {
        await this.db
          .insert(reportReads)
          .values({ reportId, key, body: body ?? null })
          .onConflictDoNothing();
      },
    };
  }

  async forgetReads(reportId: string): Promise<void> {
    await this.db.delete(reportReads).where(eq(reportReads.reportId, reportId));
  }
}
