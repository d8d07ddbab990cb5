import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/core/database.js';
import { postgresRuns } from './support/postgres-required.js';

const onPostgres = postgresRuns('Migration lock tests');

describe.runIf(onPostgres)('migrations on a PostgreSQL several instances share', () => {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/postgres');
  const name = `ce_migrations_${randomBytes(5).toString('hex')}`;
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: base.toString() });

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('stop with a plain message when a table they need stays locked past their lock_timeout', async () => {
    // A long transaction holds the migrations' own table: the migrator cannot go on.
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    await holder.query('create schema if not exists drizzle');
    await holder.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    await holder.query('begin');
    await holder.query('lock table drizzle.__drizzle_migrations in access exclusive mode');
    try {
      await expect(openDatabase({ kind: 'postgres', url: url.toString() }, undefined, 500)).rejects.toThrow(
        'A migration could not lock its table within 0.5 s (a long transaction holds it). Nothing was changed; start again once it has ended.',
      );
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });

  it('wait, saying so, while another instance holds the migration lock, then open', async () => {
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    await other.query('select pg_advisory_lock(72707369)');
    const said: string[] = [];
    const opening = openDatabase(
      { kind: 'postgres', url: url.toString() },
      { info: (_object, message) => said.push(message) },
    );
    await vi.waitFor(() => expect(said).toContain('another instance is running the migrations; waiting for it'));
    await other.query('select pg_advisory_unlock(72707369)');
    await other.end();
    const database = await opening;
    await database.ping();
    await database.close();
  });
});

describe.runIf(onPostgres)(
  'the change sets renamed (migration 0021, decision 0028), then their old names dropped (0036)',
  () => {
    const base = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/postgres');
    const name = `ce_rename_${randomBytes(5).toString('hex')}`;
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    const client = new pg.Client({ connectionString: url.toString() });
    let folder: string;

    /** The database as a release left it: every migration up to `last` (the journal's index). */
    const migrateUpTo = async (last: number) => {
      const journalFile = path.join(folder, 'meta/_journal.json');
      const journal = z
        .looseObject({ entries: z.array(z.looseObject({ idx: z.number() })) })
        .parse(JSON.parse(await readFile(path.join(import.meta.dirname, '../migrations/meta/_journal.json'), 'utf8')));
      journal.entries = journal.entries.filter((entry) => entry.idx <= last);
      await writeFile(journalFile, JSON.stringify(journal));
      await migrate(drizzle(client), { migrationsFolder: folder });
    };
    const exists = async (relation: string) =>
      (await client.query<{ found: string | null }>('select to_regclass($1) as found', [relation])).rows[0]?.found !==
      null;

    beforeAll(async () => {
      await admin.connect();
      await admin.query(`create database ${name}`);
      await client.connect();
      folder = await mkdtemp(path.join(tmpdir(), 'ce-migrations-'));
      await cp(path.join(import.meta.dirname, '../migrations'), folder, { recursive: true });
      await migrateUpTo(20);
    });
    afterAll(async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      await rm(folder, { recursive: true, force: true });
    });

    it('keeps the runs and items of the release before through both steps, which its code wrote by the old names', async () => {
      const [user] = (
        await client.query<{ id: string }>(
          "insert into users (email, password_hash) values ('old@example.com', 'x') returning id",
        )
      ).rows;
      const [run] = (
        await client.query<{ id: string }>(
          `insert into bulk_runs (user_id, kind, organization_id, organization_name, input, status, undo_of)
         values ($1, 'tests', 'o1', 'Acme', '{"accountGroups": []}', 'done', null) returning id`,
          [user?.id],
        )
      ).rows;
      await client.query(
        `insert into bulk_run_items (run_id, position, action, template_index, aid, account_group_name, subject, payload, status)
       values ($1, 0, 'create-test', 3, 'g1', 'EMEA', 'Ping', '{}', 'done')`,
        [run?.id],
      );

      // The expand step, before the contract step: the release before still runs during the rolling deploy,
      // and its old names write into the new tables.
      await migrateUpTo(35);
      const [late] = (
        await client.query<{ id: string; status: string; planned: boolean }>(
          `insert into bulk_runs (user_id, kind, organization_id, organization_name, input)
         values ($1, 'agents', 'o1', 'Acme', '{}') returning id, status, planned`,
          [user?.id],
        )
      ).rows;
      expect(late).toMatchObject({ status: 'queued', planned: false });
      await client.query(
        `insert into bulk_run_items (run_id, position, action, template_index, aid, account_group_name, subject, payload)
       values ($1, 0, 'delete-agent', null, 'g1', 'EMEA', 'a1', '{}') on conflict do nothing`,
        [late?.id],
      );
      await client.query("update bulk_run_items set status = 'done' where run_id = $1", [late?.id]);
      const seen = await client.query('select template_index from bulk_run_items where run_id = $1', [run?.id]);
      expect(seen.rows).toEqual([{ template_index: 3 }]);

      // The contract step, once no instance of that release runs: the old names are gone, every row stays.
      const database = await openDatabase({ kind: 'postgres', url: url.toString() });
      await database.close();
      expect(await exists('bulk_runs')).toBe(false);
      expect(await exists('bulk_run_items')).toBe(false);
      const runs = await client.query('select kind, organization_name, status from change_sets order by kind desc');
      expect(runs.rows).toEqual([
        { kind: 'tests', organization_name: 'Acme', status: 'done' },
        { kind: 'agents', organization_name: 'Acme', status: 'queued' },
      ]);
      const items = await client.query(
        'select subject, input_index, status, side, phase from change_set_items order by input_index nulls last',
      );
      expect(items.rows).toEqual([
        { subject: 'Ping', input_index: 3, status: 'done', side: 'source', phase: 0 },
        { subject: 'a1', input_index: null, status: 'done', side: 'source', phase: 0 },
      ]);
    });
  },
);
