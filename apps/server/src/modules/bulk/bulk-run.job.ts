import { z } from 'zod';
import { BULK_MESSAGES } from '@ce/contract';
import { PlatformError, type PlatformClient, type PlatformSession } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { EVERY_MINUTE, NIGHTLY, periodicJob, queuedJob, type Job } from '../../core/jobs.js';
import { LeaseLostError, leaseTiming, whileLeased, type Lease, type LeasedJobDependencies } from '../../core/lease.js';
import { mapPool } from '../../core/map-pool.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { UsageService } from '../usage/usage.service.js';
import { executeItem, failureOf, itemPayload, reconcileItem } from './bulk-actions.js';
import { platformFailure } from './bulk-plan.js';
import { planRunItems } from './bulk-run.plan.js';
import type { BulkRepository, BulkRunRow } from './bulk.repository.js';

export const BULK_RUN_QUEUE = 'bulk.run';
export const BULK_RECOVERY_QUEUE = 'bulk.recover';
const BULK_RETENTION_QUEUE = 'bulk.retention';
/** Operations in flight at once for one run; the organization's limiter decides the pace. */
const RUN_CONCURRENCY = 6;
const TOKEN_REJECTED = 'Not attempted: the platform rejected the token';
/** A queued run whose job is gone is sent again once it has waited this long. */
const LOST_JOB_GRACE_MS = 2 * 60_000;
const JOB_GONE_STATES = new Set(['completed', 'cancelled', 'failed']);
const DAY_MS = 86_400_000;
const STOPPED = Symbol('stopped');

/** Sends a run to the queue, noting the queue job so recovery can tell when it is lost. */
export async function sendBulkRunJob(queue: JobQueue, repository: BulkRepository, runId: string): Promise<void> {
  const jobId = await queue.send(
    BULK_RUN_QUEUE,
    { runId },
    { retryLimit: 2, retryDelay: 5, expireInSeconds: 6 * 60 * 60 },
  );
  await repository.updateRun(runId, { jobId });
}

/** Ends a run that cannot go on: failed with `reason`, its token erased. */
export async function endRun(
  repository: BulkRepository,
  tokens: SealedTokens,
  row: Pick<BulkRunRow, 'id' | 'tokenId'>,
  reason: string,
): Promise<void> {
  await repository.failPending(row.id, reason, new Date());
  await repository.updateRun(row.id, { status: 'failed', error: reason, finishedAt: new Date(), leaseUntil: null });
  await tokens.erase(row.tokenId);
}

/** A 401 from the platform: the token is refused, and the run cannot go on. */
const isRejection = (error: unknown) => error instanceof PlatformError && error.status === 401;

export interface BulkRunJobDependencies extends LeasedJobDependencies {
  repository: BulkRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  usage: UsageService;
}

/**
 * The bulk run job: claims a run under a lease, plans its items once, performs them paced by the
 * organization's limiter, resumes after a crash without repeating an operation, and erases the token
 * at the end. Also its keepers: recovery of runs whose worker or queue job was lost, and retention.
 */
export class BulkRunJob {
  private stopping = false;
  private readonly active = new Set<Promise<void>>();

  constructor(private readonly deps: BulkRunJobDependencies) {}

  jobs(retentionDays: number): Job[] {
    return [
      queuedJob({ queue: BULK_RUN_QUEUE, data: z.object({ runId: z.uuid() }), run: ({ runId }) => this.run(runId) }),
      periodicJob(BULK_RECOVERY_QUEUE, EVERY_MINUTE, async () => {
        await this.recoverOrphans(false);
      }),
      periodicJob(BULK_RETENTION_QUEUE, NIGHTLY, async () => {
        const deleted = await this.deps.repository.deleteFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS));
        if (deleted) this.deps.logger.info({ deleted, retentionDays }, 'retention: finished bulk runs deleted');
      }),
    ];
  }

  /**
   * Finds runs that lost their worker (a lapsed lease) or their queue job and sends them back to the
   * queue, or ends them when their token is gone. `all`: every unfinished run is an orphan (the
   * embedded database belongs to this one process).
   */
  async recoverOrphans(all: boolean, now = new Date()): Promise<number> {
    const { repository, queue, tokens } = this.deps;
    // Taken back in one statement: two instances recovering at once never both send the same run.
    const candidates = await repository.leases.requeueOrphans(now, all);
    const waitingSince = all ? now : new Date(now.getTime() - LOST_JOB_GRACE_MS);
    for (const row of await repository.leases.waiting(waitingSince)) {
      if (candidates.some((candidate) => candidate.id === row.id)) continue;
      const state = !all && row.jobId ? await queue.jobState(BULK_RUN_QUEUE, row.jobId) : null;
      if (state === null || JOB_GONE_STATES.has(state)) candidates.push(row);
    }
    for (const row of candidates) {
      if ((await tokens.open(row.tokenId)) === null) {
        await endRun(repository, tokens, row, 'The token is no longer available: start the run again.');
        continue;
      }
      await sendBulkRunJob(queue, repository, row.id);
    }
    if (candidates.length)
      this.deps.logger.info({ count: candidates.length }, 'bulk runs without a worker sent back to the queue');
    this.deps.metrics?.recovered('bulk', candidates.length);
    return candidates.length;
  }

  /** Stops taking items: runs in progress stop after their in-flight calls and resume elsewhere. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.active]);
  }

  async run(runId: string): Promise<void> {
    if (this.stopping) return;
    const work = this.execute(runId);
    this.active.add(work);
    try {
      await work;
    } finally {
      this.active.delete(work);
    }
  }

  private async execute(runId: string): Promise<void> {
    const { repository } = this.deps;
    const claimed = await repository.leases.claim(runId, new Date(), this.deps.instanceId, this.deps.leaseMs);
    if (!claimed) return;
    const { row: run, lease } = claimed;
    // Ended here (done or failed under this claim): usage is counted and the token goes. A stopped run
    // keeps its token (sealed) for the worker that resumes it; a lost lease leaves both to the new holder.
    let ended = false;
    try {
      const outcome = await whileLeased(
        lease,
        (held, until) => repository.leases.renew(held, until),
        (signal) => this.carryOut(run, lease, signal),
        leaseTiming(this.deps.leaseMs),
      );
      if (outcome === STOPPED) {
        await repository.leases.write(lease, { leaseUntil: null });
        return;
      }
      ended = await repository.leases.write(lease, { status: 'done', finishedAt: new Date(), error: null });
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.deps.logger.warn({ runId, jobGeneration: lease.generation }, 'bulk run lease lost to another worker');
        return;
      }
      const message = isRejection(error)
        ? BULK_MESSAGES.invalidToken
        : error instanceof AppError || error instanceof PlatformError
          ? error.message
          : 'The run stopped because of an internal error.';
      if (!(error instanceof AppError || error instanceof PlatformError))
        this.deps.logger.error({ err: error, runId, jobGeneration: lease.generation }, 'bulk run failed');
      ended = await repository.leases.write(lease, { status: 'failed', finishedAt: new Date(), error: message });
      if (ended) await repository.failPending(runId, message, new Date());
    } finally {
      if (ended) {
        await this.recordUsage(run).catch((error: unknown) =>
          this.deps.logger.error({ err: error, runId }, 'bulk run usage not recorded'),
        );
        await this.deps.tokens.erase(run.tokenId);
        await repository.leases.write(lease, { leaseUntil: null });
      }
    }
  }

  /** Plans a claimed run once, then works through its items. */
  private async carryOut(run: BulkRunRow, lease: Lease, signal: AbortSignal): Promise<typeof STOPPED | void> {
    const token = await this.deps.tokens.open(run.tokenId);
    if (token === null) throw new AppError(400, 'token_gone', 'The token is no longer available.');
    const session = this.deps.platform.as({ token, organizationId: run.organizationId, signal });
    if (!run.planned) await this.deps.repository.plan(run.id, await planRunItems(run, session, this.deps.repository));
    return this.perform(run, lease, session, signal);
  }

  private async recordUsage(run: BulkRunRow): Promise<void> {
    if (run.kind !== 'tests' && run.kind !== 'undo-tests') return;
    const done = (await this.deps.repository.totals([run.id]))
      .filter((row) => row.status === 'done')
      .reduce((sum, row) => sum + row.count, 0);
    if (done > 0)
      await this.deps.usage.record({
        tool: 'tests-created',
        userId: run.userId,
        quantity: run.kind === 'tests' ? done : -done,
      });
  }

  /** Works through the items not done yet; a 401 ends the run, anything else fails one item. */
  private async perform(
    run: BulkRunRow,
    lease: Lease,
    session: PlatformSession,
    signal: AbortSignal,
  ): Promise<typeof STOPPED | void> {
    const { repository } = this.deps;
    const items = await repository.items(run.id);
    // An item sent but not answered before a crash: ask the platform whether it happened.
    for (const item of items.filter((candidate) => candidate.status === 'running')) {
      const resultId = await reconcileItem(session, itemPayload(item), item);
      if (resultId === null) {
        await repository.updateItem(item.id, { status: 'pending', startedAt: null });
        item.status = 'pending';
      } else {
        await repository.updateItem(item.id, {
          status: 'done',
          resultId,
          finishedAt: new Date(),
          note: 'Confirmed after a restart',
          error: null,
        });
      }
    }
    let rejected = false;
    let left = 0;
    await mapPool(
      items.filter((item) => item.status === 'pending'),
      RUN_CONCURRENCY,
      async (item) => {
        if (rejected || this.stopping || signal.aborted) {
          left += 1;
          return;
        }
        const payload = itemPayload(item);
        // Only a pending item is sent, and only by the worker that still holds the run.
        if (!(await repository.claimItem(item.id, new Date(), lease))) return;
        try {
          const result = await executeItem(session, payload, item);
          await repository.updateItem(item.id, { status: 'done', finishedAt: new Date(), error: null, ...result });
        } catch (error) {
          if (isRejection(error)) {
            rejected = true;
            await repository.updateItem(item.id, { status: 'pending', startedAt: null });
            return;
          }
          await repository.updateItem(item.id, {
            status: 'failed',
            finishedAt: new Date(),
            error: platformFailure(error, failureOf(payload.action)),
          });
        }
      },
    );
    if (rejected) {
      await repository.failPending(run.id, TOKEN_REJECTED, new Date());
      throw new AppError(401, 'invalid_platform_token', BULK_MESSAGES.invalidToken);
    }
    if (left > 0) return STOPPED;
  }
}
