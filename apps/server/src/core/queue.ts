import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { SqlExecutor } from './database.js';
import { databaseFault } from './database-faults.js';
import { errorCode } from './errors.js';

const DEADLOCK_DETECTED = '40P01';

export type JobHandler<T extends object> = (jobs: PgBoss.Job<T>[]) => Promise<void>;

/** pg-boss's statements that record jobs' ends (`complete`, `fail`): they float, nothing awaits them. */
const RECORDS_A_JOB_END =
  /SET completed_on = now\(\),\s+state = 'completed'|WITH deleted_jobs AS \(\s+DELETE FROM \S+\.job\s+WHERE name = \$1 AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/;

/**
 * The job queue (pg-boss) on the process's one database instance, whichever database that is.
 *
 * pg-boss records a job's end without waiting for it (`complete` and `fail` float), so a handler that ends
 * after the queue stopped would write to a database the app has closed: an unhandled rejection that ends the
 * process. `stop` therefore waits for running handlers and pg-boss's own statements before the database may
 * close. A statement pg-boss makes after that (a handler that outlived the grace) is never run and never
 * answered: nothing awaits it, and the product's leases, not pg-boss, decide who finishes a job (a job left
 * active is taken over when its lease runs out). The queue's own methods refuse to work once it stopped.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private started = false;
  private closed = false;
  private readonly created = new Set<string>();
  /** This instance's pg-boss workers per queue: woken when this instance sends to their queue. */
  private readonly workers = new Map<string, string[]>();
  private readonly sentListeners: ((name: string) => void)[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private readonly statements = new Set<Promise<unknown>>();

  constructor(sql: SqlExecutor, logger: FastifyBaseLogger) {
    const executeSql = (text: string, values?: unknown[]): Promise<{ rows: unknown[] }> => {
      if (this.closed) {
        logger.debug('job queue stopped: a late statement of pg-boss not run');
        return new Promise<never>(() => undefined);
      }
      const statement = this.track(this.statements, sql.executeSql(text, values));
      // pg-boss records a job's end without awaiting it: with the database away, that rejection would float and
      // end the process. Unrecorded, the job stays active in pg-boss, and the product's lease decides who ends it.
      if (!RECORDS_A_JOB_END.test(text)) return statement;
      return statement.catch((error: unknown) => {
        if (!databaseFault(error)) throw error;
        logger.warn({ err: error }, "job queue: a job's end was not recorded, the database is away");
        return { rows: [{ count: '0' }] };
      });
    };
    this.boss = new PgBoss({
      db: { executeSql },
      schema: 'pgboss',
      // Completed jobs are history the product keeps in its own tables; pg-boss only needs them briefly.
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  /**
   * pg-boss 10 needs a queue to exist before jobs are sent to it or taken from it. Instances starting at
   * the same moment create the same queues at once, and PostgreSQL may end one of them as a deadlock
   * (40P01): that one tries again (the queue is then there, or its turn comes).
   */
  private async ensure(name: string): Promise<void> {
    this.refuseWhenStopped();
    if (this.created.has(name)) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(name);
        break;
      } catch (error) {
        if (errorCode(error) !== DEADLOCK_DETECTED || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.floor(Math.random() * 100)));
      }
    }
    this.created.add(name);
  }

  /**
   * Declares a queue and its handler, taking up to `concurrency` of its jobs at once on this instance (one
   * pg-boss worker each; a worker takes its next job when it ends one, or polls every 2 s while idle).
   */
  async work<T extends object>(
    name: string,
    handler: JobHandler<T>,
    options: PgBoss.WorkOptions = {},
    concurrency = 1,
  ): Promise<void> {
    await this.ensure(name);
    const ids = this.workers.get(name) ?? [];
    for (let index = 0; index < concurrency; index++) {
      ids.push(await this.boss.work<T>(name, options, (jobs) => this.track(this.running, handler(jobs))));
    }
    this.workers.set(name, ids);
  }

  private refuseWhenStopped(): void {
    if (this.closed) throw new Error('job queue stopped');
  }

  private track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
    const settled: Promise<unknown> = promise.then(
      () => set.delete(settled),
      () => set.delete(settled),
    );
    set.add(settled);
    return promise;
  }

  /** Runs `name` on a cron schedule; every instance may declare it, pg-boss runs it once per slot. */
  async schedule(name: string, cron: string): Promise<void> {
    await this.ensure(name);
    await this.boss.schedule(name, cron);
  }

  /** Stops the cron schedule of `name` (a job this version no longer has). */
  async unschedule(name: string): Promise<void> {
    this.refuseWhenStopped();
    await this.boss.unschedule(name);
  }

  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    await this.ensure(name);
    const id = await this.boss.send(name, data, options);
    // A job sent here starts now on this instance's idle worker, not at its next poll (any instance may take it),
    // and on its jobs thread's (decision 0035).
    if (!options.startAfter) {
      this.wake(name);
      for (const listener of this.sentListeners) listener(name);
    }
    return id;
  }

  /** Starts this queue's idle workers of `name` now, not at their next poll. */
  wake(name: string): void {
    for (const worker of this.workers.get(name) ?? []) this.boss.notifyWorker(worker);
  }

  /** Told of each job sent to start now: the instance's jobs thread wakes its workers of that name. */
  onSent(listener: (name: string) => void): void {
    this.sentListeners.push(listener);
  }

  /** The state of a job (created, retry, active, completed, cancelled, failed), or null when it is gone. */
  async jobState(name: string, id: string): Promise<string | null> {
    this.refuseWhenStopped();
    const job = await this.boss.getJobById(name, id);
    return job?.state ?? null;
  }

  /** Reachable means pg-boss can read its own tables. */
  async ping(): Promise<void> {
    if (!this.started) throw new Error('job queue not started');
    await this.boss.getQueues();
  }

  /**
   * Stops taking jobs, waits for running ones (up to `timeoutMs` in all) and for pg-boss to record their end;
   * after it the database may close.
   */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    const deadline = Date.now() + timeoutMs;
    await new Promise<void>((resolve) => {
      this.boss.once('stopped', () => resolve());
      this.boss.stop({ graceful: true, close: false, timeout: timeoutMs }).catch(() => resolve());
    });
    await settleWithin([...this.running], deadline);
    // A handler's end is recorded in the turn after it settles.
    await new Promise((resolve) => setImmediate(resolve));
    await settleWithin([...this.statements], deadline + 1000);
    this.closed = true;
  }
}

async function settleWithin(promises: Promise<unknown>[], deadline: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  await Promise.race([Promise.allSettled(promises), late]);
  clearTimeout(timer);
}
