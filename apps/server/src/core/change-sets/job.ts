import { z } from 'zod';
import { PLATFORM_TOKEN_REFUSED } from '@ce/contract';
import { PlatformError, type PlatformClient, type PlatformSession } from '@ce/platform-client';
import type { changeSets } from '../../db/schema.js';
import { databaseFault } from '../database-faults.js';
import { AppError } from '../errors.js';
import { queuedJob, type Job } from '../jobs.js';
import { DAY_MS, HandedBack, LeasedJobs, type HeldJob } from '../leased-job.js';
import type { LeasedJobDependencies } from '../lease.js';
import { mapPool } from '../map-pool.js';
import type { ExclusiveLocks } from '../exclusive-locks.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { itemFailure, type AnyChangeHandler, type ChangeSessions, type ChangeSetTools } from './handlers.js';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow } from './repository.js';

export const CHANGE_SET_QUEUE = 'change-sets.run';
/** Operations in flight at once for one run; the organization's limiter decides the pace. */
const RUN_CONCURRENCY = 6;
const TOKEN_REJECTED = 'Not attempted: the platform rejected the token';
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
  // A keeper's write: the run went back to the queue, no worker holds it.
  await repository.failPending(row.id, reason);
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
  /** Find-or-create steps made once across instances (SetContext.exclusively). */
  locks: ExclusiveLocks;
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

  private readonly leased: LeasedJobs<typeof changeSets>;

  constructor(private readonly deps: ChangeSetJobDependencies) {
    const { repository, tokens, queue } = deps;
    this.leased = new LeasedJobs(deps, {
      name: 'change set',
      metric: 'change-sets',
      leases: repository.leases,
      queue,
      queueOf: () => CHANGE_SET_QUEUE,
      send: (row) => sendChangeSetJob(queue, repository, row.id),
      async unrunnable(row) {
        const lost = (await tokens.open(row.tokenId)) === null;
        const targetLost = row.targetTokenId !== null && (await tokens.open(row.targetTokenId)) === null;
        return lost || targetLost ? 'The token is no longer available: start the run again.' : null;
      },
      giveUp: (row, reason) => endRun(repository, tokens, row, reason),
      prune: async (retentionDays) => ({
        deleted: await repository.deleteFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS)),
      }),
    });
  }

  private handler(action: string): AnyChangeHandler {
    const handler = this.deps.tools.actions[action];
    if (!handler) throw new Error(`No change-set action "${action}" is registered`);
    return handler;
  }

  /** The runs' queue and the keepers. */
  jobs(retentionDays: number): Job[] {
    return [
      queuedJob({ queue: CHANGE_SET_QUEUE, data: z.object({ runId: z.uuid() }), run: ({ runId }) => this.run(runId) }),
      ...this.leased.keepers('change-sets', retentionDays),
    ];
  }

  /** Change sets whose worker or queue job was lost go back to the queue; those whose token is gone end. */
  recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    return this.leased.recoverOrphans(all, now);
  }

  /**
   * Stops taking items: runs in progress stop after their in-flight calls (their outcomes recorded) and resume
   * elsewhere; what is still out after `withinMs` is cancelled and handed back (an item sent and not answered is
   * reconciled by the worker that resumes it), so the instance stops within its grace.
   */
  async stop(withinMs = Infinity): Promise<void> {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      if (Number.isFinite(withinMs)) timer = setTimeout(resolve, withinMs);
    });
    await Promise.race([Promise.allSettled([...this.active]), late]);
    clearTimeout(timer);
    await this.leased.stop();
  }

  async run(runId: string): Promise<void> {
    // A stopping instance takes no new run: the queue hands it out again, to another instance.
    if (this.stopping) throw new HandedBack();
    const work = this.execute(runId);
    this.active.add(work);
    try {
      await work;
    } finally {
      this.active.delete(work);
    }
  }

  private execute(runId: string): Promise<void> {
    const { repository, tokens, logger } = this.deps;
    return this.leased.run(runId, {
      work: (job, signal) => this.carryOut(job, signal),
      // A stopped run keeps its tokens (sealed) for the worker that resumes it.
      done: async (job, outcome) => {
        if (outcome === STOPPED) {
          await job.handBack();
          return false;
        }
        await this.summarize(job, { status: 'done', error: null });
        return job.write({ status: 'done', finishedAt: new Date(), error: null });
      },
      failed: async (job, error) => {
        const message = isRejection(error)
          ? PLATFORM_TOKEN_REFUSED
          : error instanceof AppError || error instanceof PlatformError
            ? error.message
            : 'The run stopped because of an internal error.';
        if (!(error instanceof AppError || error instanceof PlatformError))
          logger.error({ err: error, runId, jobGeneration: job.lease.generation }, 'change set failed');
        await this.summarize(job, { status: 'failed', error: message }, message);
        const ended = await job.write({ status: 'failed', finishedAt: new Date(), error: message });
        if (ended) await job.fenced((tx) => repository.failPending(runId, message, tx));
        return ended;
      },
      // Ended under this claim: usage is counted, and the tokens go.
      ended: async (job) => {
        await this.finished(job.row).catch((error: unknown) =>
          logger.error({ err: error, runId }, 'change set end not recorded'),
        );
        await eraseTokens(tokens, job.row);
      },
    });
  }

  private kind(run: ChangeSetRow) {
    const kind = this.deps.tools.kinds[run.kind];
    if (!kind) throw new Error(`No change-set kind "${run.kind}" is registered`);
    return kind;
  }

  /** Plans a claimed set once, then works through its items. */
  private async carryOut(job: HeldJob<typeof changeSets>, signal: AbortSignal): Promise<typeof STOPPED | void> {
    const run = job.row;
    const open = async (tokenId: string | null, organizationId: string | null) => {
      const token = await this.deps.tokens.open(tokenId);
      if (token === null || organizationId === null)
        throw new AppError(400, 'token_gone', 'The token is no longer available.');
      // Each write is sent only while this worker still holds the run, checked after its rate slot.
      return this.deps.platform.as({
        token,
        organizationId,
        signal,
        lane: 'background',
        beforeWrite: () => job.stillHeld(),
      });
    };
    const sessions: ChangeSessions = {
      source: await open(run.tokenId, run.organizationId),
      target: run.targetTokenId ? await open(run.targetTokenId, run.targetOrganizationId) : null,
    };
    if (!run.planned) {
      const items = await this.kind(run).plan(run, sessions, this.deps.repository);
      await job.fenced((tx) => this.deps.repository.plan(run.id, items, tx));
    }
    return this.perform(job, sessions, signal);
  }

  /**
   * The kind's summary of the set as it is about to end (`failing`: its pending items failed with these words, as the
   * end records them), before the end is written: a database fault hands the set back, and the worker that resumes
   * it summarizes again under the same key. Any other failure of the summary is logged, not the set's.
   */
  private async summarize(
    job: HeldJob<typeof changeSets>,
    end: Pick<ChangeSetRow, 'status' | 'error'>,
    failing?: string,
  ): Promise<void> {
    const summary = this.kind(job.row).summary;
    if (!summary) return;
    const { repository, logger } = this.deps;
    try {
      const run = await repository.findRun(job.row.id);
      const items = await repository.items(job.row.id);
      const ending = items.map((item) =>
        failing !== undefined && item.status === 'pending' ? { ...item, status: 'failed', error: failing } : item,
      );
      if (run) await summary({ ...run, ...end }, ending);
    } catch (error) {
      if (databaseFault(error)) throw error;
      logger.error({ err: error, runId: job.row.id }, 'change set summary not sent');
    }
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
    job: HeldJob<typeof changeSets>,
    sessions: ChangeSessions,
    signal: AbortSignal,
  ): Promise<typeof STOPPED | void> {
    const { repository } = this.deps;
    const run = job.row;
    // Every outcome is recorded under the lease: a worker that lost it records nothing (LeaseLostError stops it).
    const record = (id: string, changes: Partial<ChangeItemRow>) =>
      job.fenced((tx) => repository.updateItem(id, changes, tx));
    const sessionOf = (item: ChangeItemRow): PlatformSession =>
      item.side === 'target' && sessions.target ? sessions.target : sessions.source;
    const exclusively = <T>(name: string, work: () => Promise<T>) =>
      this.deps.locks.exclusively(`change-set:${name}`, work, { signal });
    const items = await repository.items(run.id);
    // An item sent but not answered before a crash: ask the platform whether it happened.
    for (const item of items.filter((candidate) => candidate.status === 'running')) {
      const handler = this.handler(item.action);
      const resultId = await handler.reconcile(sessionOf(item), handler.payload.parse(item.payload), item);
      if (resultId === null) {
        await record(item.id, { status: 'pending', startedAt: null });
        item.status = 'pending';
      } else {
        const confirmed = { status: 'done', resultId, finishedAt: new Date(), note: 'Confirmed after a restart' };
        await record(item.id, { ...confirmed, error: null });
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
            await record(item.id, { status: 'skipped', finishedAt: new Date(), note: blocked });
            return;
          }
          // Only a pending item is sent, and only by the worker that still holds the set.
          if (!(await repository.claimItem(item.id, job.lease))) return;
          let result;
          try {
            result = await handler.execute(sessionOf(item), payload, item, { items: current, exclusively });
          } catch (error) {
            // Cancelled (the instance stops, the lease is lost), or the database failed the call's lease check: left
            // running, reconciled by whoever resumes the run (the database's fault hands the run back, fails nothing).
            if (databaseFault(error)) throw error;
            if (signal.aborted) {
              left += 1;
              return;
            }
            if (isRejection(error)) {
              rejected = true;
              await record(item.id, { status: 'pending', startedAt: null });
              return;
            }
            await record(item.id, {
              status: 'failed',
              finishedAt: new Date(),
              error: itemFailure(error, handler),
            });
            return;
          }
          await record(item.id, { status: 'done', finishedAt: new Date(), error: null, ...result });
          await this.deps.onWrite?.(run, { ...item, ...result }, result.resultId ?? null);
        },
      );
      if (rejected || left > 0) break;
    }
    if (rejected) {
      await job.fenced((tx) => repository.failPending(run.id, TOKEN_REJECTED, tx));
      throw new AppError(401, 'invalid_platform_token', PLATFORM_TOKEN_REFUSED);
    }
    if (left > 0) return STOPPED;
  }
}
