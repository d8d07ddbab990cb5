import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './build-test-app.js';
import { postgresRuns } from './support/postgres-required.js';

// A worker stopped (SIGSTOP, a paused VM) in the middle of a transaction holds its row locks until it runs
// again; the worker taking its jobs over must not wait on them for ever.
const onPostgres = postgresRuns('The idle-transaction test');

describe.runIf(onPostgres)('a transaction its process left idle', () => {
  it('is ended by PostgreSQL, and the row it locked is free for the next worker', async () => {
    const testApp = await createTestApp('postgres', { WORKERS_ENABLED: 'false' });
    try {
      const { db, sql: raw } = testApp.database;
      const [user] = (await raw.executeSql('select id from users limit 1')).rows as { id: string }[];
      let resume: () => void = () => undefined;
      const stopped = new Promise<void>((resolve) => (resume = resolve));
      let locked: () => void = () => undefined;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      // The stopped process: it locked the row, then said nothing more.
      const transaction = db
        .transaction(async (tx) => {
          await tx.execute(sql`select id from users where id = ${user?.id} for update`);
          locked();
          await stopped;
          await tx.execute(sql`update users set name = name where id = ${user?.id}`);
        })
        .then(
          () => 'committed',
          () => 'ended',
        );
      await lockTaken;
      // The next worker writes the same row: it waits for the lock, which the server frees by ending the transaction.
      await raw.executeSql('update users set name = name where id = $1', [user?.id]);
      resume();
      expect(await transaction).toBe('ended');
    } finally {
      await testApp.close();
    }
  }, 60_000);
});
