import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { SqlExecutor } from './database.js';
import { errorCode } from './errors.js';

const DEADLOCK_DETECTED = '40P01';

export type JobHandler<T extends object> = (jobs: PgBoss.Job<T>[]) => Promise<void>;

/** The job queue (pg-boss) on the process's one database instance, whichever database that is. */
export class JobQueue {
  private readonly boss: PgBoss;
  private started = false;
  private readonly created = new Set<string>();

  constructor(sql: SqlExecutor, logger: FastifyBaseLogger) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => sql.executeSql(text, values) },
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

  /** Declares a queue and its handler. */
  async work<T extends object>(name: string, handler: JobHandler<T>, options: PgBoss.WorkOptions = {}): Promise<void> {
    await this.ensure(name);
    await this.boss.work<T>(name, options, handler);
  }

  /** Runs `name` on a cron schedule; every instance may declare it, pg-boss runs it once per slot. */
  async schedule(name: string, cron: string): Promise<void> {
    await this.ensure(name);
    await this.boss.schedule(name, cron);
  }

  /** Stops the cron schedule of `name` (a job this version no longer has). */
  async unschedule(name: string): Promise<void> {
    await this.boss.unschedule(name);
  }

  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    await this.ensure(name);
    return this.boss.send(name, data, options);
  }

  /** The state of a job (created, retry, active, completed, cancelled, failed), or null when it is gone. */
  async jobState(name: string, id: string): Promise<string | null> {
    const job = await this.boss.getJobById(name, id);
    return job?.state ?? null;
  }

  /** Reachable means pg-boss can read its own tables. */
  async ping(): Promise<void> {
    if (!this.started) throw new Error('job queue not started');
    await this.boss.getQueues();
  }

  /** Stops taking jobs, waits for running ones (up to `timeoutMs`), then stops. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await new Promise<void>((resolve) => {
      this.boss.once('stopped', () => resolve());
      this.boss.stop({ graceful: true, close: false, timeout: timeoutMs }).catch(() => resolve());
    });
  }
}
