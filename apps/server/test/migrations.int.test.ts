import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
