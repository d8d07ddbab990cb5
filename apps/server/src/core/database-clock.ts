import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './database.js';

const epochSchema = z.object({ rows: z.tuple([z.object({ epochMs: z.coerce.number() })]) });

/** How often the difference between this instance's clock and the database's is measured again. */
const SAMPLE_EVERY_MS = 60_000;

/**
 * The database's clock as this instance sees it (issue 56, item 6): what judges the times code computes before it
 * stores them (a watch's first due time, the spacing of "run now", a consent's expiry). Code that needs a Date at
 * once cannot ask the database each time, so the difference between the two clocks is measured at start and every
 * minute (half the round trip taken off) and `now()` is this instance's clock moved by it: an instance whose clock is
 * off computes in the database's time. While the database does not answer, the last difference measured holds.
 */
export class DatabaseClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** The database's time, in milliseconds since the epoch. */
    private readonly databaseMs: () => Promise<number>,
    private readonly local: () => number = Date.now,
  ) {}

  /** Measures the difference once; a database that does not answer keeps the last one. */
  async sample(): Promise<void> {
    const sent = this.local();
    const epochMs = await this.databaseMs();
    const received = this.local();
    if (Number.isFinite(epochMs)) this.offsetMs = epochMs - (sent + received) / 2;
  }

  /** Measures now and then every minute, until `stop`. */
  async start(): Promise<void> {
    await this.sample().catch(() => undefined);
    this.timer = setInterval(() => void this.sample().catch(() => undefined), SAMPLE_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The database's time now, as a Date. */
  readonly now = (): Date => new Date(this.local() + this.offsetMs);
}

/** The database's clock of `db` (PostgreSQL or PGlite: `clock_timestamp()` is the moment asked, not the transaction's). */
export function databaseClockOf(db: Db): DatabaseClock {
  return new DatabaseClock(async () => {
    const result = await db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as "epochMs"`);
    return epochSchema.parse(result).rows[0].epochMs;
  });
}
