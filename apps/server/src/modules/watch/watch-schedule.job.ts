import type { WatchScheduleRepository } from './watch-schedule.repository.js';
import type { WatchService } from './watch.service.js';

const MINUTE_MS = 60_000;
/** How long after each minute of the database's clock every instance's scheduler makes the runs due. */
const SCHEDULE_AFTER_MINUTE_MS = 250;
/** A scheduler's pass that failed (the database away) is tried again after this long. */
const SCHEDULE_RETRY_MS = 5_000;

export interface WatchSchedulerDependencies {
  schedules: WatchScheduleRepository;
  watches: Pick<WatchService, 'nextRun'>;
  /** Sends the queued runs of an organization whose turn it is. */
  dispatch(organizationId: string): Promise<void>;
  /**
   * Stands for the database's clock where the app was given a clock (tests that set the time): due times are judged
   * by the database's `now()` otherwise, whatever this instance's clock says (decision 0023).
   */
  databaseClock?: () => Date;
  logger: { info(object: object, message: string): void; warn(object: object, message: string): void };
}

/**
 * The watch scheduler (issue 56): makes every due run once, however many are due at once, with the schedulers of
 * every other worker instance. Each instance's runs a moment after each minute of the database's clock (due times
 * are whole minutes) and once at start; the minute's periodic job runs it too.
 */
export class WatchScheduler {
  private loop: { timer?: NodeJS.Timeout; pass?: Promise<void>; stopped: boolean } | undefined;

  constructor(private readonly deps: WatchSchedulerDependencies) {}

  /**
   * Makes the runs due by now, each once, batch after batch until no due watch is left (schedulers on other instances
   * take other batches at the same time), then sends the runs whose organization's turn it is (the others are sent
   * as their turn comes); answers how many runs it made.
   */
  async schedule(): Promise<number> {
    const organizations = new Set<string>();
    let made = 0;
    let full: boolean;
    do {
      const batch = await this.deps.schedules.batch(
        (watch, now) => this.deps.watches.nextRun(watch, now),
        this.deps.databaseClock?.(),
      );
      for (const run of batch.created) organizations.add(run.organizationId);
      made += batch.created.length;
      full = batch.full;
    } while (full);
    for (const organizationId of organizations) await this.deps.dispatch(organizationId);
    return made;
  }

  /** This instance's scheduler: a pass now, then a moment after each minute; a pass that failed again in 5 s. */
  start(): void {
    if (this.loop) return;
    const loop: { timer?: NodeJS.Timeout; pass?: Promise<void>; stopped: boolean } = { stopped: false };
    this.loop = loop;
    const plan = (ms: number) => {
      if (loop.stopped) return;
      loop.timer = setTimeout(() => {
        loop.pass = pass();
      }, ms);
      loop.timer.unref();
    };
    const pass = async () => {
      try {
        const scheduled = await this.schedule();
        if (scheduled > 0) this.deps.logger.info({ scheduled }, 'watch runs made');
        const now = this.deps.databaseClock?.() ?? (await this.deps.schedules.databaseNow());
        plan(MINUTE_MS - (now.getTime() % MINUTE_MS) + SCHEDULE_AFTER_MINUTE_MS);
      } catch (error) {
        if (!loop.stopped) this.deps.logger.warn({ err: error }, 'the watch scheduler failed; trying again');
        plan(SCHEDULE_RETRY_MS);
      }
    };
    loop.pass = pass();
  }

  /** Stops this instance's scheduler, once its pass under way has ended. */
  async stop(): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    loop.stopped = true;
    clearTimeout(loop.timer);
    this.loop = undefined;
    await loop.pass;
  }
}
