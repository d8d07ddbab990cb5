import { mkdir } from 'node:fs/promises';
import path from 'node:path';
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

/** Where the data lives: an embedded PGlite folder (`null` = in memory, for tests) or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

/** Raw SQL access in the shape pg-boss expects from a `db` adapter. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  db: Db;
  sql: SqlExecutor;
  kind: DatabaseTarget['kind'];
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(import.meta.dirname, '../../migrations');

/** Opens the one database instance of this process and brings its schema up to date. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'pglite' ? openPglite(target.dataDir) : openPostgres(target.url);
}

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

async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir !== null) await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o700 });
  const client = dataDir === null ? new PGlite() : new PGlite({ fs: new PrivateNodeFS(dataDir) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
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
    async ping() {
      await client.query('select 1');
    },
    async close() {
      await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const db = drizzlePg(pool, { schema });
  // Several instances may start at once: one runs the migrations, the others wait for it.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock(72707369)');
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query('select pg_advisory_unlock(72707369)').catch(() => undefined);
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
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}
