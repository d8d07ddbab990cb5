import type { PGlite } from '@electric-sql/pglite';
import { openPgliteEngine } from '../../src/core/database.js';

/**
 * The in-memory PGlite engines of this test worker, handed from one test app to the next. Opening one costs about
 * 1.8 s of CPU (WebAssembly starting a 40 MB cluster) and the integration run builds hundreds of apps; emptying one
 * takes milliseconds. An engine comes back emptied (every table of the product and the job queue's jobs and
 * schedules; the schema, the migrations' record and the queues stay), so the next app finds what a freshly migrated
 * database holds. Fewer engines opened and closed is also fewer of the WebAssembly code churns after which Node 24's
 * V8 may abort a process (nodejs/node#64500).
 */
const idle: PGlite[] = [];

/** Engines kept for later apps; one more than that (two apps of a test at once) is closed when it comes back. */
const KEEP = 2;

/** The job queue's tables that hold work and its timers; `queue` (the queues the app declares) and `version` stay. */
const QUEUE_TABLES = ['job', 'archive', 'schedule', 'subscription'];

/** An engine for a test app: one another app gave back, or a new one from the migrated snapshot. */
export async function takeEngine(snapshot: () => Blob): Promise<PGlite> {
  return idle.pop() ?? (await openPgliteEngine(snapshot()));
}

/** Takes an engine back from an app that closed: emptied for the next one, or closed when enough are kept. */
export async function giveBack(engine: PGlite): Promise<void> {
  if (idle.length >= KEEP) return engine.close();
  try {
    await empty(engine);
  } catch (error) {
    await engine.close().catch(() => undefined);
    throw error;
  }
  idle.push(engine);
}

async function empty(engine: PGlite): Promise<void> {
  // Nothing an app left half done: a transaction it never ended is rolled back (a warning when there is none).
  await engine.exec('rollback');
  const { rows } = await engine.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname = 'public' or (schemaname = 'pgboss' and tablename = any($1))`,
    [QUEUE_TABLES],
  );
  if (rows.length > 0)
    await engine.exec(`truncate ${rows.map(({ name }) => name).join(', ')} restart identity cascade`);
  // The queue's upkeep starts as on a new database (pg-boss skips upkeep another process did lately).
  const { rows: queue } = await engine.query<{ present: boolean }>(
    `select to_regclass('pgboss.version') is not null as present`,
  );
  if (queue[0]?.present)
    await engine.exec('update pgboss.version set maintained_on = null, cron_on = null, monitored_on = null');
}
