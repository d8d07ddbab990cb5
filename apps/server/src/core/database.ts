import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../db/schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Where the data lives: an embedded PGlite folder (`null` = in memory, for tests) or a PostgreSQL server. An
 * in-memory PGlite may start from a `snapshot` (`pgliteSnapshot`) instead of an empty cluster, or be an `engine`
 * its caller opened and keeps: the app migrates it and leaves it open when it closes (the integration tests hand
 * one engine to app after app, emptied between them: opening one costs about 1.8 s of CPU).
 */
export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | null; snapshot?: Blob; engine?: PGlite }
  | { kind: 'postgres'; url: string; poolSize?: number };

/** Raw SQL access in the shape pg-boss expects from a `db` adapter. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  db: Db;
  sql: SqlExecutor;
  kind: DatabaseTarget['kind'];
  /**
   * Runs `work` while no other instance runs its own (the lock the migrations take): for start-up steps
   * that are not safe to run at the same moment from several instances, such as installing the job queue.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(import.meta.dirname, '../../migrations');

/** What opening the database tells: that it waits for another instance's migrations. */
export interface DatabaseLog {
  info(object: object, message: string): void;
}

/** Opens the one database instance of this process and brings its schema up to date. */
export async function openDatabase(
  target: DatabaseTarget,
  log?: DatabaseLog,
  migrationLockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
): Promise<Database> {
  return target.kind === 'pglite'
    ? openPglite(target.dataDir, target.snapshot, target.engine)
    : openPostgres(target.url, log, migrationLockTimeoutMs, target.poolSize ?? 10);
}

/** Migrations' own lock wait: a table held by a long transaction stops the start with a message, not a hang. */
export const MIGRATION_LOCK_TIMEOUT_MS = 15_000;
const MIGRATION_LOCK_ID = 72707369;

type FileNodeOps = { setattr(node: unknown, attr: { mode?: number }): void };

/**
 * PGlite's file layer (emscripten's NODEFS) gives every file it creates mode 0666 with chmod, which
 * ignores the umask. This one keeps them to the owner: any mode it sets loses the group and other bits.
 */
class PrivateNodeFS extends NodeFS {
  override async init(pg: PGliteInterface, opts: Parameters<NodeFS['init']>[1]) {
    const result = await super.init(pg as never, opts);
    const preRun = result.emscriptenOpts.preRun ?? [];
    preRun.push((module) => {
      const ops = (module.NODEFS as unknown as { node_ops: FileNodeOps }).node_ops;
      const setattr = ops.setattr.bind(ops);
      ops.setattr = (node, attr) =>
        setattr(node, attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~0o077 });
    });
    return { emscriptenOpts: { ...result.emscriptenOpts, preRun } };
  }
}

/** Waits for a PGlite and brings its schema up to date. */
async function migrated(client: PGlite) {
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/**
 * A dump of an in-memory database with every migration applied. Starting from it skips the cluster's
 * initialisation (about ten seconds of CPU in WebAssembly): the integration tests build hundreds of apps from one.
 */
export async function pgliteSnapshot(): Promise<Blob> {
  const client = new PGlite(await engine());
  try {
    await migrated(client);
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** An in-memory engine started from a snapshot, for a caller that keeps it (see `DatabaseTarget`). */
export async function openPgliteEngine(snapshot: Blob): Promise<PGlite> {
  const client = new PGlite({ loadDataDir: snapshot, ...(await engine()) });
  await client.waitReady;
  return client;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

const BYTEA = 17;
/**
 * How PGlite passes bytea (artifacts, backups, uploads): as hex, the way node-postgres does, but in native code.
 * PGlite's own conversion goes byte by byte in JavaScript (`Array.from(bytes).map(...)`): measured, 20 s of CPU and
 * 11 s of garbage collection in one test file of uploads. Read back as a Buffer, as node-postgres gives it.
 */
const PGLITE_BYTEA = {
  serializers: {
    [BYTEA]: (value: unknown): string => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA]: (text: string): Buffer => Buffer.from(text.slice(2), 'hex') },
};

/**
 * PGlite's options: its engine, compiled once per process (every database opened after the first skips the compile,
 * measured half the CPU of opening one; tests open hundreds; PGlite loads its own when it cannot be read), and the
 * bytea conversions above.
 */
async function engine(): Promise<{ pgliteWasmModule?: WebAssembly.Module } & typeof PGLITE_BYTEA> {
  compiled ??= (async () => {
    try {
      const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
      return await WebAssembly.compile(await readFile(path.join(path.dirname(entry), 'pglite.wasm')));
    } catch {
      return undefined;
    }
  })();
  const module = await compiled;
  return module ? { pgliteWasmModule: module, ...PGLITE_BYTEA } : PGLITE_BYTEA;
}

async function openPglite(dataDir: string | null, snapshot?: Blob, given?: PGlite): Promise<Database> {
  if (dataDir !== null) await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o700 });
  const compiledEngine = given ? {} : await engine();
  const client =
    given ??
    (dataDir !== null
      ? new PGlite({ fs: new PrivateNodeFS(dataDir), ...compiledEngine })
      : new PGlite({ ...(snapshot ? { loadDataDir: snapshot } : {}), ...compiledEngine }));
  const db = await migrated(client);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    sql: {
      // pg-boss sends multi-statement scripts without values; PGlite's exec runs those, query does not.
      async executeSql(text, values) {
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
    },
    // One process owns the embedded database: nobody to wait for.
    exclusively: (work) => work(),
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!given) await client.close();
    },
  };
}

/** How long PostgreSQL lets a transaction sit idle (its client stopped) before it ends it and frees its locks. */
const IDLE_IN_TRANSACTION_MS = 15_000;

async function openPostgres(
  url: string,
  log: DatabaseLog | undefined,
  lockTimeoutMs: number,
  poolSize: number,
): Promise<Database> {
  // A process stopped in the middle of a transaction (SIGSTOP, a VM paused, a debugger) would hold its row locks
  // until it runs again: the job it held could not be recovered, nor a starting worker finish its recovery. The
  // server ends a transaction left idle this long; the product's transactions never wait on anything but SQL.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  pool.on('connect', (client) => {
    // A client in use that loses its connection (the server ended its idle transaction) says so to its query,
    // which rejects; the event must not end the process as well.
    client.on('error', () => undefined);
  });
  const db = drizzlePg(pool, { schema });
  // Several instances may start at once: one runs the migrations, the others wait for it (and say so).
  // The migrations run on the connection holding the advisory lock, with a lock_timeout: a statement that
  // cannot take its table lock (a long transaction holds it) fails the start with a message instead of
  // queueing every other query of the table behind it.
  const lockClient = await pool.connect();
  try {
    const [first] = (
      await lockClient.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [MIGRATION_LOCK_ID])
    ).rows;
    if (!first?.taken) {
      log?.info({}, 'another instance is running the migrations; waiting for it');
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    }
    await lockClient.query(`set lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    try {
      await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } catch (error) {
      const failure = error as { code?: string; cause?: { code?: string } };
      // 55P03: lock_not_available (the driver's error, or drizzle's wrapping of it).
      if ((failure.code ?? failure.cause?.code) === '55P03')
        throw new Error(
          `A migration could not lock its table within ${lockTimeoutMs / 1000} s (a long transaction holds it). ` +
            'Nothing was changed; start again once it has ended.',
        );
      throw error;
    }
    await lockClient.query('reset lock_timeout');
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    sql: {
      async executeSql(text, values) {
        return pool.query(text, values);
      },
    },
    async exclusively(work) {
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        return await work();
      } finally {
        await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        holder.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}
