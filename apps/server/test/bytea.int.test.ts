import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/core/database.js';

// Binary content (artifacts, backups, uploads, screenshots) goes through the embedded database's bytea conversions,
// which the product gives PGlite in native code (core/database.ts): every byte must come back as it went in.
describe('bytes in the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    const snapshot = new Blob([readFileSync(inject('pgliteSnapshot'))]);
    database = await openDatabase({ kind: 'pglite', dataDir: null, snapshot });
    await database.sql.executeSql('create table bytes_kept (id int primary key, content bytea not null)');
  });
  afterAll(() => database.close());

  const roundTrip = async (id: number, bytes: Uint8Array): Promise<unknown> => {
    await database.sql.executeSql('insert into bytes_kept (id, content) values ($1, $2)', [id, bytes]);
    const { rows } = await database.sql.executeSql(
      'select content, length(content) as length, md5(content) as md5 from bytes_kept where id = $1',
      [id],
    );
    return rows[0];
  };

  it('keeps every byte value, an empty value, a view into a larger buffer and 4 MB of random bytes', async () => {
    const every = Uint8Array.from({ length: 256 }, (_, index) => index);
    const large = randomBytes(4 * 1024 * 1024);
    const view = new Uint8Array(large.buffer, large.byteOffset + 1000, 333);
    for (const [id, bytes] of [every, new Uint8Array(0), view, large].entries()) {
      const row = (await roundTrip(id, bytes)) as { content: unknown };
      const md5 = createHash('md5').update(bytes).digest('hex');
      // PostgreSQL itself counts and hashes what it stored: the bytes were written as given...
      expect(row).toMatchObject({ length: bytes.byteLength, md5 });
      // ...and they read back the same, as a Buffer (as node-postgres gives them).
      expect(Buffer.isBuffer(row.content) && Buffer.compare(row.content, Buffer.from(bytes))).toBe(0);
    }
  });

  it('refuses what is not bytes, as PGlite does', async () => {
    await expect(
      database.sql.executeSql('insert into bytes_kept (id, content) values ($1, $2)', [99, 'not bytes']),
    ).rejects.toThrow('Invalid input for bytea type');
  });
});
