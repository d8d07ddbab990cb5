import { z } from 'zod';
import { BULK_MESSAGES } from '@ce/contract';
import { PlatformError, type PlatformClient, type PlatformSession } from '@ce/platform-client';
import { AppError } from '../errors.js';
import { EVERY_MINUTE, NIGHTLY, periodicJob, queuedJob, type Job } from '../jobs.js';
import { LeaseLostError, leaseTiming, whileLeased, type Lease, type LeasedJobDependencies } from '../lease.js';
import { mapPool } from '../map-pool.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { itemFailure, type AnyChangeHandler, type ChangeSessions, type ChangeSetTools } from './handlers.js';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow } from './repository.js';

/** The queues keep the names they had when only the bulk tools wrote. */
export const CHANGE_SET_QUEUE = 'bulk.run';
export const CHANGE_SET_RECOVERY_QUEUE = 'bulk.recover';
const CHANGE_SET_RETENTION_QUEUE = 'bulk.retention';
/** Operations in flight at once for one run; the organization's limiter decides the pace. */
const RUN_CONCURRENCY = 6;
const TOKEN_REJECTED = 'Not attempted: the platform rejected the token';
const DAY_MS = 86_400_000;
const STOPPED = Symbol('stopped');

/** Sends a change set to the queue, noting the queue job so recovery can tell when it is lost. */
export async function sendChangeSetJob(queue: JobQueue, repository: ChangeSetRepository, runId: string): Promise<void> {
  const jobId = await queue.send(
    CHANGE_SET_QUEUE,
    { runId },
    { retryLimit: 2, retryDelay: 5, expireInSeconds: 6 * 60 * 60 },
  );
  await repository.updateRun(runId, { jobId });
}

/** Erases a change set's tokens (its own, and its second organization's). */
async function eraseTokens(tokens: SealedTokens, row: Pick<ChangeSetRow, 'tokenId' | 'targetTokenId'>) {
  await tokens.erase(row.tokenId);
  if (row.targetTokenId) await tokens.erase(row.targetTokenId);
}

/** Ends a change set that cannot go on: failed with `reason`, its tokens erased. */
export async function endRun(
  repository: ChangeSetRepository,
  tokens: SealedTokens,
  row: Pick<ChangeSetRow, 'id' | 'tokenId' | 'targetTokenId'>,
  reason: string,
): Promise<void> {
  await repository.failPending(row.id, reason, new Date());
  await repository.updateRun(row.id, { status: 'failed', error: reason, finishedAt: new Date(), leaseUntil: null });
  await eraseTokens(tokens, row);
}

/** A 401 from the platform: the token is refused, and the run cannot go on. */
const isRejection = (error: unknown) => error instanceof PlatformError && error.status === 401;

/** Told of every item that wrote into a customer's account (the audit log listens). */
export type WriteObserver = (run: ChangeSetRow, item: ChangeItemRow, resultId: string | null) => Promise<void>;

export interface ChangeSetJobDependencies extends LeasedJobDependencies {
  repository: ChangeSetRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  tools: ChangeSetTools;
  onWrite?: WriteObserver;
}

/**
 * The change-set engine: claims a set under a lease, plans its items once (its kind's planner; planning
 * writes nothing into the customer's account), performs them phase by phase paced by the organization's
 * limiter, each exactly once (an item is claimed in one statement fenced by the lease, and one sent but
 * unanswered before a crash is reconciled against the platform, never blindly sent again), and erases the
 * tokens at the end. Also its keepers: recovery of sets whose worker or queue job was lost, and retention.
 */
export class ChangeSetJob {
  private stopping = false;
  private readonly active = new Set<Promise<void>>();

  constructor(private readonly deps: ChangeSetJobDependencies) {}

  private handler(action: string): AnyChangeHandler {
    const handler = this.deps.tools.actions[action];
    if (!handler) throw new Error(`No change-set action "${action}" is registered`);
    return handler;
  }

  jobs(retentionDays: number): Job[] {
    return [
      queuedJob({ queue: CHANGE_SET_QUEUE, data: z.object({ runId: z.uuid() }), run: ({ runId }) => this.run(runId) }),
      periodicJob(CHANGE_SET_RECOVERY_QUEUE, EVERY_MINUTE, async () => {
        await this.recoverOrphans(false);
      }),
      periodicJob(CHANGE_SET_RETENTION_QUEUE, NIGHTLY, async () => {
        const deleted = await this.deps.repository.deleteFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS));
        if (deleted) this.deps.logger.info({ deleted, retentionDays }, 'retention: finished change sets deleted');
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
    const candidates = await repository.leases.orphans(now, all, (jobId) => queue.jobState(CHANGE_SET_QUEUE, jobId));
    for (const row of candidates) {
      const lost = (await tokens.open(row.tokenId)) === null;
      if (lost || (row.targetTokenId && (await tokens.open(row.targetTokenId)) === null)) {
        await endRun(repository, tokens, row, 'The token is no longer available: start the run again.');
        continue;
      }
      await sendChangeSetJob(queue, repository, row.id);
    }
    if (candidates.length)
      this.deps.logger.info({ count: candidates.length }, 'change sets without a worker sent back to the queue');
    this.deps.metrics?.recovered('change-sets', candidates.length);
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
        this.deps.logger.warn({ runId, jobGeneration: lease.generation }, 'change set lease lost to another worker');
        return;
      }
      const message = isRejection(error)
        ? BULK_MESSAGES.invalidToken
        : error instanceof AppError || error instanceof PlatformError
          ? error.message
          : 'The run stopped because of an internal error.';
      if (!(error instanceof AppError || error instanceof PlatformError))
        this.deps.logger.error({ err: error, runId, jobGeneration: lease.generation }, 'change set failed');
      ended = await repository.leases.write(lease, { status: 'failed', finishedAt: new Date(), error: message });
      if (ended) await repository.failPending(runId, message, new Date());
    } finally {
      if (ended) {
        await this.finished(run).catch((error: unknown) =>
          this.deps.logger.error({ err: error, runId }, 'change set end not recorded'),
        );
        await eraseTokens(this.deps.tokens, run);
        await repository.leases.write(lease, { leaseUntil: null });
      }
    }
  }

  private kind(run: ChangeSetRow) {
    const kind = this.deps.tools.kinds[run.kind];
    if (!kind) throw new Error(`No change-set kind "${run.kind}" is registered`);
    return kind;
  }

  /** Plans a claimed set once, then works through its items. */
  private async carryOut(run: ChangeSetRow, lease: Lease, signal: AbortSignal): Promise<typeof STOPPED | void> {
    const open = async (tokenId: string | null, organizationId: string | null) => {
      const token = await this.deps.tokens.open(tokenId);
      if (token === null || organizationId === null)
        throw new AppError(400, 'token_gone', 'The token is no longer available.');
      return this.deps.platform.as({ token, organizationId, signal });
    };
    const sessions: ChangeSessions = {
      source: await open(run.tokenId, run.organizationId),
      target: run.targetTokenId ? await open(run.targetTokenId, run.targetOrganizationId) : null,
    };
    if (!run.planned)
      await this.deps.repository.plan(run.id, await this.kind(run).plan(run, sessions, this.deps.repository));
    return this.perform(run, lease, sessions, signal);
  }

  private async finished(run: ChangeSetRow): Promise<void> {
    const finished = this.kind(run).finished;
    const ended = await this.deps.repository.findRun(run.id);
    if (finished && ended) await finished(ended, await this.deps.repository.items(run.id));
  }

  /**
   * Works through the items not done yet, phase by phase (a later phase starts when every item of the
   * earlier ones has ended); a 401 ends the set, anything else fails one item.
   */
  private async perform(
    run: ChangeSetRow,
    lease: Lease,
    sessions: ChangeSessions,
    signal: AbortSignal,
  ): Promise<typeof STOPPED | void> {
    const { repository } = this.deps;
    const sessionOf = (item: ChangeItemRow): PlatformSession =>
      item.side === 'target' && sessions.target ? sessions.target : sessions.source;
    const items = await repository.items(run.id);
    // An item sent but not answered before a crash: ask the platform whether it happened.
    for (const item of items.filter((candidate) => candidate.status === 'running')) {
      const handler = this.handler(item.action);
      const resultId = await handler.reconcile(sessionOf(item), handler.payload.parse(item.payload), item);
      if (resultId === null) {
        await repository.updateItem(item.id, { status: 'pending', startedAt: null });
        item.status = 'pending';
      } else {
        const confirmed = { status: 'done', resultId, finishedAt: new Date(), note: 'Confirmed after a restart' };
        await repository.updateItem(item.id, { ...confirmed, error: null });
        Object.assign(item, confirmed);
        await this.deps.onWrite?.(run, item, resultId);
      }
    }
    let rejected = false;
    let left = 0;
    const phases = [...new Set(items.map((item) => item.phase))].sort((a, b) => a - b);
    for (const phase of phases) {
      // Later phases judge their items against what the earlier ones did: read afresh.
      const current = phase === phases[0] ? items : await repository.items(run.id);
      await mapPool(
        current.filter((item) => item.phase === phase && item.status === 'pending'),
        RUN_CONCURRENCY,
        async (item) => {
          if (rejected || this.stopping || signal.aborted) {
            left += 1;
            return;
          }
          const handler = this.handler(item.action);
          const payload = handler.payload.parse(item.payload);
          const blocked = handler.blockedBy?.(payload, current) ?? null;
          if (blocked) {
            await repository.updateItem(item.id, { status: 'skipped', finishedAt: new Date(), note: blocked });
            return;
          }
          // Only a pending item is sent, and only by the worker that still holds the set.
          if (!(await repository.claimItem(item.id, new Date(), lease))) return;
          let result;
          try {
            result = await handler.execute(sessionOf(item), payload, item, { items: current });
          } catch (error) {
            if (isRejection(error)) {
              rejected = true;
              await repository.updateItem(item.id, { status: 'pending', startedAt: null });
              return;
            }
            await repository.updateItem(item.id, {
              status: 'failed',
              finishedAt: new Date(),
              error: itemFailure(error, handler),
            });
            return;
          }
          await repository.updateItem(item.id, { status: 'done', finishedAt: new Date(), error: null, ...result });
          await this.deps.onWrite?.(run, { ...item, ...result }, result.resultId ?? null);
        },
      );
      if (rejected || left > 0) break;
    }
    if (rejected) {
      await repository.failPending(run.id, TOKEN_REJECTED, new Date());
      throw new AppError(401, 'invalid_platform_token', BULK_MESSAGES.invalidToken);
    }
    if (left > 0) return STOPPED;
  }
}
