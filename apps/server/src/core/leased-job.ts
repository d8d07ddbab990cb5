import { EVERY_MINUTE, NIGHTLY, periodicJob, type Job } from './jobs.js';
import {
  LeaseLostError,
  leaseTiming,
  whileLeased,
  type Lease,
  type LeasedJobDependencies,
  type LeasedTable,
  type Leases,
} from './lease.js';
import type { Db } from './database.js';
import { databaseFault } from './database-faults.js';
import type { JobQueue } from './queue.js';

/** What a job's work is aborted with when its instance stops: it is handed back, never failed. */
export class HandedBack extends Error {
  constructor() {
    super('This instance is stopping: the job is handed back to resume on another');
    this.name = 'HandedBack';
  }
}

/**
 * Of an instance's shutdown grace (SHUTDOWN_GRACE_MS), what its jobs may take to stop of themselves (a change set's
 * calls in flight coming back) before what is left is cancelled and handed back: the rest is for the queue and the
 * database to close, so the process exits within the grace.
 */
export const drainWithinMs = (graceMs: number): number => Math.max(graceMs * 0.3, graceMs - 5000);

/** A day, for retention periods given in days. */
export const DAY_MS = 86_400_000;

/**
 * A job row claimed by this worker, and the one way the job writes its own rows: every write names the
 * claim's generation (and the database's clock judges that the claim has not run out), so a worker that lost
 * its lease writes nothing over the new holder's: not its row, nor its items, files or chunks (`fenced`).
 */
export class HeldJob<T extends LeasedTable> {
  constructor(
    private readonly leases: Leases<T>,
    readonly lease: Lease,
    readonly row: T['$inferSelect'],
    private readonly requeue: (row: T['$inferSelect']) => Promise<void> = async () => undefined,
  ) {}

  /** Whether a write of this claim was refused: another worker holds the job now. */
  lost = false;

  /** A write made only while the claim is still this one's: false (nothing written) otherwise. */
  async write(changes: Partial<T['$inferInsert']>): Promise<boolean> {
    const written = await this.leases.write(this.lease, changes);
    if (!written) this.lost = true;
    return written;
  }

  /**
   * A write of the rows that belong to the job (items, files, chunks), made in one transaction only while
   * the claim is still this one's; LeaseLostError (nothing written) otherwise.
   */
  fenced<R>(write: (tx: Db) => Promise<R>): Promise<R> {
    return this.leases.fenced(this.lease, write);
  }

  /**
   * Rejects with LeaseLostError unless the claim is still this one's: checked right before each write into
   * the customer's account (after its rate slot), so a worker paused past its lease sends nothing more.
   */
  stillHeld(): Promise<void> {
    return this.leases.check(this.lease);
  }

  /** Lets the claim go (the job ended, or stopped to resume elsewhere). */
  release(): Promise<boolean> {
    return this.leases.release(this.lease);
  }

  /**
   * Hands the job back to resume elsewhere (this instance stops): the claim goes, what the job holds (its token, what
   * it read) stays for the worker that takes it, and a queue job is sent at once so that another instance claims it
   * now (the recovery would, at its next minute); a claim already lost hands back nothing. Answers whether it did.
   */
  async handBack(): Promise<boolean> {
    const released = await this.release();
    if (released) await this.requeue(this.row);
    return released;
  }

  /** Like `write`, but a lost claim stops the job (LeaseLostError). */
  mustWrite(changes: Partial<T['$inferInsert']>): Promise<void> {
    return this.leases.mustWrite(this.lease, changes);
  }
}

/** What one kind of leased job does with a claimed row; the skeleton does the rest. */
export interface LeasedWork<T extends LeasedTable, R> {
  /** The work, under the lease (renewed meanwhile; `signal` aborts when it is lost). */
  work(job: HeldJob<T>, signal: AbortSignal): Promise<R>;
  /** Records the work's end; true when this claim ended the job (false: paused, stopped, lease lost). */
  done(job: HeldJob<T>, result: R): Promise<boolean>;
  /** Records a failure (any but a lost lease); true when this claim ended the job (false: sent back to wait). */
  failed(job: HeldJob<T>, error: unknown): Promise<boolean>;
  /** Once the job ended under this claim: what it held goes (its tokens, what it read). */
  ended(job: HeldJob<T>): Promise<void>;
}

/** What the keepers of one kind of leased job need: where its rows are sent, and when one can no longer run. */
export interface LeasedJobKind<T extends LeasedTable> {
  /** Names the job in logs ("report") and metrics ("reports"). */
  name: string;
  metric: string;
  leases: Leases<T>;
  queue: JobQueue;
  /** The queue a row's job waits on. */
  queueOf(row: T['$inferSelect']): string;
  /** Sends a row to its queue (noting the queue job on the row). */
  send(row: T['$inferSelect']): Promise<void>;
  /** Why an orphan can no longer run (its token is gone...), or null when it can. */
  unrunnable(row: T['$inferSelect'], now: Date): Promise<string | null>;
  /** Ends an orphan that can no longer run: failed with `reason`, what it held erased. */
  giveUp(row: T['$inferSelect'], reason: string): Promise<void>;
  /** Deletes what is kept no longer than `retentionDays`; answers what went, for the log. */
  prune(retentionDays: number): Promise<Record<string, number>>;
}

/**
 * The skeleton every leased job shares (reports, change sets, backups): claim a row under a lease, renew it
 * while the work runs, record the end once under the claim, and its keepers: recovery of rows whose worker
 * or queue job was lost (every minute) and retention (nightly). Each job supplies only its work.
 */
export class LeasedJobs<T extends LeasedTable> {
  /** The jobs this instance works on, and how each is told to hand itself back. */
  private readonly active = new Map<Promise<void>, AbortController>();
  private stopping = false;

  constructor(
    private readonly deps: LeasedJobDependencies,
    private readonly kind: LeasedJobKind<T>,
  ) {}

  /**
   * The instance stops (SIGTERM, a rolling deploy): every job it works on is handed back now (its platform calls
   * cancelled, its claim let go, the row queued again with its token kept) and resumes on another instance; a job
   * that arrives meanwhile is left for another. Resolves once each has let go.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const controller of this.active.values()) controller.abort(new HandedBack());
    await Promise.allSettled([...this.active.keys()]);
  }

  /** Whether the instance stops: a job checks it between its steps (change sets between items). */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** The keepers' periodic jobs, named `{prefix}.recover` and `{prefix}.retention`. */
  keepers(prefix: string, retentionDays: number): Job[] {
    return [
      periodicJob(`${prefix}.recover`, EVERY_MINUTE, async () => {
        await this.recoverOrphans(false);
      }),
      periodicJob(`${prefix}.retention`, NIGHTLY, async () => {
        const deleted = await this.kind.prune(retentionDays);
        if (Object.values(deleted).some(Boolean))
          this.deps.logger.info({ ...deleted, retentionDays }, `retention: finished ${this.kind.metric} deleted`);
      }),
    ];
  }

  /** Claims row `id` and carries out `work` on it; a row another worker holds, or one that ended, is left alone. */
  async run<R>(id: string, work: LeasedWork<T, R>): Promise<void> {
    // A stopping instance takes nothing more: the queue hands the job out again, to another instance.
    if (this.stopping) throw new HandedBack();
    const handBack = new AbortController();
    const running = this.claimAndRun(id, work, handBack);
    this.active.set(running, handBack);
    try {
      await running;
    } finally {
      this.active.delete(running);
    }
  }

  private async claimAndRun<R>(id: string, work: LeasedWork<T, R>, handBack: AbortController): Promise<void> {
    const { leases, name } = this.kind;
    const claimed = await leases.claim(id, this.deps.instanceId, this.deps.leaseMs);
    if (!claimed) return;
    // A queue job not sent (the queue stopped) leaves the row to the recovery of a live instance.
    const requeue = (row: T['$inferSelect']) =>
      this.kind.send(row).catch((error: unknown) => {
        this.deps.logger.warn({ id, err: error }, `${name} handed back without a queue job; the recovery resends it`);
      });
    const job = new HeldJob(leases, claimed.lease, claimed.row, requeue);
    const log = { id, jobGeneration: claimed.lease.generation };
    // Ended here (done or failed under this claim): what the job held goes. A paused or stopped job keeps
    // it for the worker that resumes it; a lost lease leaves it to the worker that holds the job now.
    let ended = false;
    const lost = () => this.deps.logger.warn(log, `${name} lease lost to another worker; this one stops`);
    try {
      const result = await whileLeased(
        claimed.lease,
        (held) => leases.renew(held, this.deps.leaseMs),
        (signal) => work.work(job, AbortSignal.any([signal, handBack.signal])),
        leaseTiming(this.deps.leaseMs),
      );
      ended = await work.done(job, result);
      if (job.lost) lost();
    } catch (error) {
      if (error instanceof LeaseLostError) return lost();
      // The instance stops: whatever the cancelled work threw, the job goes back to the queue to resume elsewhere.
      if (handBack.signal.aborted) {
        if (await job.handBack()) this.deps.logger.info(log, `${name} handed back: this instance stops`);
        else lost();
        return;
      }
      // The database failed the job, not its work: nothing is recorded as failed. The claim lapses and the
      // recovery sends the row back to the queue once the database answers (a write made meanwhile resumes
      // as after a crash: reconciled, never repeated).
      const fault = databaseFault(error);
      if (fault) {
        // A transaction the database ended while this process was stopped (SIGSTOP): the job is another's by now.
        const taken = await job.stillHeld().then(
          () => false,
          (failure: unknown) => failure instanceof LeaseLostError,
        );
        if (taken) return lost();
        this.deps.logger.warn({ ...log, err: error, fault }, `${name} handed back: the database failed it`);
        return;
      }
      // Recording the failure may meet the database's fault too: then, as above, nothing is recorded.
      ended = await work.failed(job, error).catch((failure: unknown) => {
        const fault = databaseFault(failure);
        if (!fault) throw failure;
        this.deps.logger.warn({ ...log, err: failure, fault }, `${name} handed back: the database failed it`);
        return false;
      });
      if (job.lost) lost();
    } finally {
      if (ended) {
        await work.ended(job);
        await job.release();
      }
    }
  }

  /**
   * Finds rows that lost their worker (a lapsed lease) or their queue job and sends them back to the queue,
   * or ends those that can no longer run. `all`: every unfinished row is an orphan (the embedded database
   * belongs to this one process).
   */
  async recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    const { leases, queue } = this.kind;
    const candidates = await leases.orphans(
      now,
      all,
      (jobId, row) => queue.jobState(this.kind.queueOf(row), jobId),
      this.deps.leaseMs,
    );
    let requeued = 0;
    let failed = 0;
    for (const row of candidates) {
      const reason = await this.kind.unrunnable(row, now);
      if (reason) {
        await this.kind.giveUp(row, reason);
        failed += 1;
      } else {
        await this.kind.send(row);
        requeued += 1;
      }
    }
    if (requeued || failed)
      this.deps.logger.info(
        { requeued, failed },
        `${this.kind.metric} without a worker sent back to the queue or ended`,
      );
    this.deps.metrics?.recovered(this.kind.metric, requeued);
    return { requeued, failed };
  }
}
