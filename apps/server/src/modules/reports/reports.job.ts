import { z } from 'zod';
import { PATHS, REPORT_KINDS, reportKindSchema } from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { queuedJob, type Job } from '../../core/jobs.js';
import { DAY_MS, LeasedJobs, type HeldJob } from '../../core/leased-job.js';
import type { LeasedJobDependencies } from '../../core/lease.js';
import type { reportRequests } from '../../db/schema.js';
import { mdSafe } from '../../report-kit/markdown.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { CallAudit } from '../../core/call-audit.js';
import type { SubjectDelivery, WebexDeliveries } from '../../adapters/webex-delivery.js';
import { INVALID_TOKEN_MESSAGE } from '../customer/customer.service.js';
import { GENERATED_KINDS, generatorOf } from './generators.js';
import type { GeneratedReport } from './report-generator.js';
import type { ReportRow, ReportsRepository } from './reports.repository.js';
import { laneOfJob } from '../../core/watch-run.js';
import type { Db } from '../../core/database.js';
import { readTimeline, type TimelineSource } from '../../core/timeline.js';

/** One queue, and so one worker, per report kind: a slow kind never holds up another. */
export const reportQueue = (kind: string) => `reports.generate.${kind}`;
/** A report that meets platform faults is taken up again this many times in all, resuming its reads. */
export const REPORT_MAX_ATTEMPTS = 3;
const RETRY_AFTER_SECONDS = 15;
/** A queued report is given up, its token erased, once it has waited this long. */
export const REPORT_MAX_WAIT_MS = 24 * 60 * 60_000;

/** Plain words for a platform failure during a report. */
function failureMessage(error: unknown): string {
  if (error instanceof PlatformError) return error.status === 401 ? INVALID_TOKEN_MESSAGE : error.message;
  return 'The report could not be produced because of an internal error.';
}

/** A failure another attempt may get past: the platform answered 5xx, timed out or could not be reached. */
function isTransient(error: unknown): boolean {
  return error instanceof PlatformError && (error.status <= 0 || error.status >= 500);
}

/** Sends a report to its kind's queue, noting the queue job so recovery can tell when it is lost. */
export async function sendReportJob(
  queue: JobQueue,
  repository: ReportsRepository,
  row: Pick<ReportRow, 'id' | 'kind'>,
  delaySeconds = 0,
): Promise<void> {
  const jobId = await queue.send(
    reportQueue(row.kind),
    { reportId: row.id },
    { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 * 60, ...(delaySeconds ? { startAfter: delaySeconds } : {}) },
  );
  await repository.update(row.id, { jobId });
}

export interface ReportJobsDependencies extends LeasedJobDependencies {
  repository: ReportsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  /** Webex delivery, each message once; null when there is no Webex. */
  webex: WebexDeliveries | null;
  /** The moment a report is made at (tests pass a fixed clock); the system clock by default. */
  clock?: () => Date;
  /** Audits the platform calls of a watch's health check with the watch's id. */
  callAudit?: CallAudit;
  /** The database and the modules' timeline sources, for a kind built from the toolkit's own records. */
  stored?: { db: Db; timelineSources: () => readonly TimelineSource[] };
  /** The product's public address (PUBLIC_URL): a report's message links to its row in My Reports. */
  publicUrl?: string;
}

/**
 * The report job: generate, store, deliver, erase the token; and its keepers: recovery of reports
 * whose worker or queue job was lost, and retention.
 */
export class ReportJobs {
  private readonly leased: LeasedJobs<typeof reportRequests>;

  constructor(private readonly deps: ReportJobsDependencies) {
    const { repository, queue, tokens } = deps;
    this.leased = new LeasedJobs(deps, {
      name: 'report',
      metric: 'reports',
      leases: repository.leases,
      queue,
      queueOf: (row) => reportQueue(row.kind),
      send: (row) => sendReportJob(queue, repository, row),
      async unrunnable(row, now) {
        if (!generatorOf(row.kind)) return 'This report kind is no longer available.';
        if (now.getTime() - row.createdAt.getTime() > REPORT_MAX_WAIT_MS)
          return 'The report waited too long for a worker. Run it again.';
        if ((await tokens.open(row.tokenId)) === null) return 'The token is no longer available: run the report again.';
        return null;
      },
      giveUp: (row, reason) => this.giveUp(row, reason),
      prune: async (retentionDays) => ({
        deleted: await repository.deleteFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS)),
        deliveries: (await deps.webex?.prune(retentionDays)) ?? 0,
      }),
    });
  }

  jobs(retentionDays: number): Job[] {
    return [
      ...GENERATED_KINDS.map((kind) =>
        queuedJob({
          queue: reportQueue(kind),
          data: z.object({ reportId: z.uuid() }),
          run: ({ reportId }) => this.run(reportId),
        }),
      ),
      ...this.leased.keepers('reports', retentionDays),
    ];
  }

  /** Ends a report that can no longer run: failed with `reason`, its token and reads erased. */
  private async giveUp(row: Pick<ReportRow, 'id' | 'tokenId'>, reason: string): Promise<void> {
    await this.deps.repository.update(row.id, {
      status: 'failed',
      finishedAt: new Date(),
      error: reason,
      deliveryStatus: 'skipped',
      leaseUntil: null,
    });
    await this.deps.tokens.erase(row.tokenId);
    await this.deps.repository.forgetReads(row.id);
  }

  /** The instance stops: the reports under way are handed back (their reads kept) and resume elsewhere. */
  stop(): Promise<void> {
    return this.leased.stop();
  }

  /**
   * Finds reports that lost their worker or their queue job and sends them back to the queue, or ends
   * them when they can no longer run.
   */
  recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    return this.leased.recoverOrphans(all, now);
  }

  /**
   * The job: generate, store, deliver. A platform fault sends the report back to the queue a few times,
   * keeping its token and what it already read; otherwise the token and the reads are erased when the
   * job ends, whatever happened.
   */
  run(reportId: string): Promise<void> {
    const { repository, logger } = this.deps;
    return this.leased.run(reportId, {
      work: (job, signal) => this.produce(job, signal),
      // Done under this claim: `produce` wrote it (files first, then delivery, then done).
      done: async () => true,
      failed: async (job, error) => {
        const report = job.row;
        const log = { reportId, jobGeneration: job.lease.generation };
        if (isTransient(error) && report.attempts < REPORT_MAX_ATTEMPTS) {
          if (await job.write({ status: 'queued', leaseUntil: null })) {
            await sendReportJob(this.deps.queue, repository, report, RETRY_AFTER_SECONDS);
            logger.info(
              { ...log, attempt: report.attempts, status: error instanceof PlatformError ? error.status : null },
              'report paused by a platform fault; it resumes from what it read',
            );
          }
          return false;
        }
        if (!(error instanceof PlatformError || error instanceof AppError))
          logger.error({ ...log, err: error }, 'report failed');
        return job.write({
          status: 'failed',
          finishedAt: new Date(),
          error: error instanceof AppError ? error.message : failureMessage(error),
          deliveryStatus: 'skipped',
        });
      },
      ended: async (job) => {
        await this.deps.tokens.erase(job.row.tokenId);
        await repository.forgetReads(reportId);
      },
    });
  }

  /** Generates, stores and delivers one claimed report; every write names the claim. */
  private async produce(job: HeldJob<typeof reportRequests>, signal: AbortSignal): Promise<void> {
    const { repository } = this.deps;
    const report = job.row;
    const reportId = report.id;
    const generator = generatorOf(report.kind);
    if (!generator) throw new AppError(400, 'report_unavailable', 'This report has no generator');
    const token = await this.deps.tokens.open(report.tokenId);
    if (token === null)
      throw new AppError(400, 'token_gone', 'The token is no longer available: run the report again.');
    const requestedBy = await repository.requesterEmail(report.userId);
    const { stored } = this.deps;
    const requester = stored ? await repository.requester(report.userId) : null;
    const generated = await generator({
      platform: this.deps.platform.as({
        token,
        organizationId: report.organizationId,
        journal: repository.journal(reportId),
        signal,
        // A watch's parts and duties (its review pack) are scheduled work.
        lane: laneOfJob(report.watchRunId ?? report.watchDuty),
        onAnswer: this.deps.callAudit?.observer(report.watchRunId),
      }),
      organization: { id: report.organizationId, name: report.organizationName },
      accountGroups: report.accountGroups,
      options: report.options,
      requestedBy,
      now: this.deps.clock?.() ?? new Date(),
      progress: (done, total) => job.mustWrite({ progressDone: done, progressTotal: total }),
      ...(this.deps.publicUrl
        ? { reportUrl: `${this.deps.publicUrl}${PATHS.reports}?report=${encodeURIComponent(reportId)}` }
        : {}),
      history: (filename, limit) =>
        repository.earlierArtifacts(report.kind, report.organizationId, filename, report.createdAt, limit),
      ...(stored && requester
        ? {
            stored: {
              db: stored.db,
              requester,
              timeline: (query) => readTimeline(stored.timelineSources(), query),
            },
          }
        : {}),
    });
    signal.throwIfAborted();
    await job.fenced((tx) => repository.replaceArtifacts(reportId, generated.artifacts, tx));
    // Files first (downloadable even if delivery fails), then delivery, then done: done means finished.
    await this.deliver(job, requestedBy, generated);
    await job.mustWrite({ status: 'done', finishedAt: new Date(), error: null });
  }

  /**
   * One message with the summary, then one message per file (Webex takes one file a message), each once under its
   * key. A message Webex did not take is tried again later, the files behind it in their order: the report is done,
   * its delivery pending until the retries end it (`deliveryEnded`).
   */
  private async deliver(job: HeldJob<typeof reportRequests>, to: string, generated: GeneratedReport): Promise<void> {
    const { webex } = this.deps;
    const report = job.row;
    const fresh = await this.deps.repository.find(report.id);
    if (!webex || fresh?.deliveryStatus === 'delivered') return;
    // A watch's health check is not delivered on its own: the watch's message says what changed (decision 0031).
    if (report.watchRunId) return job.mustWrite({ deliveryStatus: 'skipped' });
    const kind = reportKindSchema.safeParse(report.kind);
    const notice = {
      source: 'report',
      path: PATHS.reports,
      title: `${kind.success ? REPORT_KINDS[kind.data].label : 'Report'} not sent to Webex`,
      about: report.organizationName,
      after: '. Its files are in My Reports.',
      // Heard of by those who may list the report: a personal API token carrying its kind's capability.
      ...(kind.success ? { capabilities: [REPORT_KINDS[kind.data].capability] } : {}),
    } as const;
    const [first, ...rest] = generated.artifacts.filter((artifact) => !artifact.contentType.startsWith('text/html'));
    const messages = [
      { markdown: generated.summaryMarkdown, file: first },
      ...rest.map((artifact) => ({ markdown: mdSafe`File: ${artifact.filename}`.text, file: artifact })),
    ];
    // Each message under its own key: a job taken up again after a crash never posts one twice, and a worker that
    // lost the job (paused past its lease) sends nothing more (LeaseLostError goes up).
    const held = () => job.stillHeld();
    let waiting: string | null = null;
    for (const [position, { markdown, file }] of messages.entries()) {
      const of = { subject: `report:${report.id}`, position, userId: report.userId, notice, later: waiting !== null };
      const sent = await webex.deliver(`report:${report.id}:${position}`, to, markdown, file, of, held);
      // A failed delivery never loses the report: it stays downloadable and says why it was not sent.
      if (sent.outcome === 'failed')
        return job.mustWrite({ deliveryStatus: 'failed', deliveryError: sent.error ?? 'Webex delivery failed' });
      if (sent.outcome === 'waiting') waiting ??= sent.error ?? 'Webex did not take the message';
    }
    // Still pending while a message waits: the retries say how it ended (`deliveryEnded`), never this job.
    if (waiting === null) await job.mustWrite({ deliveryStatus: 'delivered', deliveryError: null });
    else await job.mustWrite({ deliveryError: waiting });
  }

  /** The retries ended a report's messages (sent, or given up): its page and notifications say it. */
  async deliveryEnded(reportId: string, state: SubjectDelivery): Promise<void> {
    await this.deps.repository.deliveryEnded(
      reportId,
      state.status === 'sent' ? 'delivered' : 'failed',
      state.status === 'sent' ? null : state.error,
    );
  }
}
