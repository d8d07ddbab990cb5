import { z } from 'zod';
import type { ReportKind } from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { EVERY_MINUTE, NIGHTLY, periodicJob, queuedJob, type Job } from '../../core/jobs.js';
import { LeaseLostError, leaseTiming, whileLeased, type Lease, type LeasedJobDependencies } from '../../core/lease.js';
import { mdSafe } from '../../report-kit/markdown.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import { WebexError } from '../../adapters/webex-client.js';
import type { WebexDeliveries } from '../../adapters/webex-delivery.js';
import { INVALID_TOKEN_MESSAGE } from '../customer/customer.service.js';
import { GENERATED_KINDS, generatorOf } from './generators.js';
import type { GeneratedReport } from './report-generator.js';
import type { ReportRow, ReportsRepository } from './reports.repository.js';

/** One queue, and so one worker, per report kind: a slow kind never holds up another. */
export const reportQueue = (kind: ReportKind) => `reports.generate.${kind}`;
export const REPORT_RECOVERY_QUEUE = 'reports.recover';
const REPORT_RETENTION_QUEUE = 'reports.retention';
/** A report that meets platform faults is taken up again this many times in all, resuming its reads. */
export const REPORT_MAX_ATTEMPTS = 3;
const RETRY_AFTER_SECONDS = 15;
/** A queued report whose job is gone is sent again once it has waited this long... */
const LOST_JOB_GRACE_MS = 2 * 60_000;
/** ...and given up, its token erased, once it has waited this long. */
export const REPORT_MAX_WAIT_MS = 24 * 60 * 60_000;
const JOB_GONE_STATES = new Set(['completed', 'cancelled', 'failed']);
const DAY_MS = 86_400_000;

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
    reportQueue(row.kind as ReportKind),
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
}

/**
 * The report job: generate, store, deliver, erase the token; and its keepers: recovery of reports
 * whose worker or queue job was lost, and retention.
 */
export class ReportJobs {
  constructor(private readonly deps: ReportJobsDependencies) {}

  jobs(retentionDays: number): Job[] {
    const { repository } = this.deps;
    return [
      ...GENERATED_KINDS.map((kind) =>
        queuedJob({
          queue: reportQueue(kind),
          data: z.object({ reportId: z.uuid() }),
          run: ({ reportId }) => this.run(reportId),
        }),
      ),
      periodicJob(REPORT_RECOVERY_QUEUE, EVERY_MINUTE, async () => {
        await this.recoverOrphans(false);
      }),
      periodicJob(REPORT_RETENTION_QUEUE, NIGHTLY, async () => {
        const deleted = await repository.deleteFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS));
        const deliveries = (await this.deps.webex?.prune(retentionDays)) ?? 0;
        if (deleted || deliveries)
          this.deps.logger.info({ deleted, deliveries, retentionDays }, 'retention: finished reports deleted');
      }),
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

  /** Why a report can no longer run, or null when it can. */
  private async unrunnable(row: ReportRow, now: Date): Promise<string | null> {
    if (!generatorOf(row.kind)) return 'This report kind is no longer available.';
    if (now.getTime() - row.createdAt.getTime() > REPORT_MAX_WAIT_MS)
      return 'The report waited too long for a worker. Run it again.';
    if ((await this.deps.tokens.open(row.tokenId)) === null)
      return 'The token is no longer available: run the report again.';
    return null;
  }

  /**
   * Finds reports that lost their worker or their queue job and sends them back to the queue, or ends
   * them when they can no longer run. `all`: every running report is an orphan (the embedded database
   * belongs to this one process, so nobody else can be working on them).
   */
  async recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    const { repository, queue } = this.deps;
    // Taken back in one statement: two instances recovering at once never both send the same report.
    const candidates = await repository.leases.requeueOrphans(now, all);
    for (const row of await repository.leases.waiting(new Date(now.getTime() - LOST_JOB_GRACE_MS))) {
      if (candidates.some((candidate) => candidate.id === row.id)) continue;
      const state = row.jobId ? await queue.jobState(reportQueue(row.kind as ReportKind), row.jobId) : null;
      if (state === null || JOB_GONE_STATES.has(state)) candidates.push(row);
    }
    let requeued = 0;
    let failed = 0;
    for (const row of candidates) {
      const reason = await this.unrunnable(row, now);
      if (reason) {
        await this.giveUp(row, reason);
        failed += 1;
        continue;
      }
      await sendReportJob(queue, repository, row);
      requeued += 1;
    }
    if (requeued || failed)
      this.deps.logger.info({ requeued, failed }, 'reports without a worker sent back to the queue or ended');
    this.deps.metrics?.recovered('reports', requeued);
    return { requeued, failed };
  }

  /**
   * The job: generate, store, deliver. A platform fault sends the report back to the queue a few times,
   * keeping its token and what it already read; otherwise the token and the reads are erased when the
   * job ends, whatever happened.
   */
  async run(reportId: string): Promise<void> {
    const { repository } = this.deps;
    const claimed = await repository.leases.claim(reportId, new Date(), this.deps.instanceId, this.deps.leaseMs);
    if (!claimed) return;
    const { row: report, lease } = claimed;
    const log = { reportId, jobGeneration: lease.generation };
    // Ended here (done or failed under this claim): the token and the reads go. A paused report keeps
    // them for its next attempt, and a lost lease leaves them to the worker that holds it now.
    let ended = false;
    try {
      await whileLeased(
        lease,
        (held, until) => repository.leases.renew(held, until),
        (signal) => this.produce(report, lease, signal),
        leaseTiming(this.deps.leaseMs),
      );
      ended = true;
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.deps.logger.warn(log, 'report lease lost to another worker; this one stops');
        return;
      }
      if (isTransient(error) && report.attempts < REPORT_MAX_ATTEMPTS) {
        if (await repository.leases.write(lease, { status: 'queued', leaseUntil: null })) {
          await sendReportJob(this.deps.queue, repository, report, RETRY_AFTER_SECONDS);
          this.deps.logger.info(
            { ...log, attempt: report.attempts, status: error instanceof PlatformError ? error.status : null },
            'report paused by a platform fault; it resumes from what it read',
          );
        }
        return;
      }
      if (!(error instanceof PlatformError || error instanceof AppError))
        this.deps.logger.error({ ...log, err: error }, 'report failed');
      ended = await repository.leases.write(lease, {
        status: 'failed',
        finishedAt: new Date(),
        error: error instanceof AppError ? error.message : failureMessage(error),
        deliveryStatus: 'skipped',
      });
    } finally {
      if (ended) {
        await this.deps.tokens.erase(report.tokenId);
        await repository.forgetReads(reportId);
        await repository.leases.write(lease, { leaseUntil: null });
      }
    }
  }

  /** Generates, stores and delivers one claimed report; every write names the claim. */
  private async produce(report: ReportRow, lease: Lease, signal: AbortSignal): Promise<void> {
    const { repository } = this.deps;
    const reportId = report.id;
    const generator = generatorOf(report.kind);
    if (!generator) throw new AppError(400, 'report_unavailable', 'This report has no generator');
    const token = await this.deps.tokens.open(report.tokenId);
    if (token === null)
      throw new AppError(400, 'token_gone', 'The token is no longer available: run the report again.');
    const requestedBy = await repository.requesterEmail(report.userId);
    const generated = await generator({
      platform: this.deps.platform.as({
        token,
        organizationId: report.organizationId,
        journal: repository.journal(reportId),
        signal,
      }),
      organization: { id: report.organizationId, name: report.organizationName },
      accountGroups: report.accountGroups,
      options: report.options,
      requestedBy,
      now: this.deps.clock?.() ?? new Date(),
      progress: (done, total) => repository.leases.mustWrite(lease, { progressDone: done, progressTotal: total }),
      history: (filename, limit) =>
        repository.earlierArtifacts(report.kind, report.organizationId, filename, report.createdAt, limit),
    });
    signal.throwIfAborted();
    await repository.replaceArtifacts(reportId, generated.artifacts);
    // Files first (downloadable even if delivery fails), then delivery, then done: done means finished.
    await this.deliver(report, lease, requestedBy, generated);
    await repository.leases.mustWrite(lease, { status: 'done', finishedAt: new Date(), error: null });
  }

  /** One message with the summary, then one message per file (Webex takes one file a message). */
  private async deliver(report: ReportRow, lease: Lease, to: string, generated: GeneratedReport): Promise<void> {
    const { webex } = this.deps;
    const fresh = await this.deps.repository.find(report.id);
    if (!webex || fresh?.deliveryStatus === 'delivered') return;
    try {
      const [first, ...rest] = generated.artifacts.filter((artifact) => !artifact.contentType.startsWith('text/html'));
      // Each message under its own key: a job taken up again after a crash never posts one twice.
      await webex.sendOnce(`report:${report.id}:0`, to, generated.summaryMarkdown, first);
      for (const [index, artifact] of rest.entries())
        await webex.sendOnce(`report:${report.id}:${index + 1}`, to, mdSafe`File: ${artifact.filename}`.text, artifact);
      await this.deps.repository.leases.mustWrite(lease, { deliveryStatus: 'delivered', deliveryError: null });
    } catch (error) {
      if (error instanceof LeaseLostError) throw error;
      // A failed delivery never loses the report: it stays downloadable and says why it was not sent.
      await this.deps.repository.leases.mustWrite(lease, {
        deliveryStatus: 'failed',
        deliveryError: error instanceof WebexError ? error.message : 'Webex delivery failed',
      });
    }
  }
}
