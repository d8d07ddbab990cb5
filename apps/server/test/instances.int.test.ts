import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExclusiveLocks } from '../src/platform/exclusive-locks.js';
import { createTestApp, DATABASES, TestClient, type TestApp } from './build-test-app.js';

// Several instances on one PostgreSQL database: what must hold across them lives in the database.
const onPostgres = DATABASES.includes('postgres');
if (!onPostgres) console.warn('Multi-instance tests NOT RUN: they need PostgreSQL (set DATABASE_URL).');

describe.runIf(onPostgres)('two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const env = { PUBLIC_RATE_LIMIT_PER_MINUTE: '4', WORKERS_ENABLED: 'false' };
    first = await createTestApp('postgres', env);
    second = await createTestApp('postgres', env, { sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('share one per-address limit on sign-in: two instances never allow twice the limit', async () => {
    const address = '198.51.100.77';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const instance = attempt % 2 === 0 ? first : second;
      const response = await new TestClient(instance.app).request({
        method: 'POST',
        url: '/api/session',
        payload: { email: `nobody-${attempt}@demo.local`, password: 'wrong-password' },
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    // Four answers in the minute, whichever instance each reached; then the limit, on both.
    expect(statuses.slice(0, 4).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Another address is not held back.
    const other = await new TestClient(second.app).request({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'nobody@demo.local', password: 'wrong-password' },
      remoteAddress: '198.51.100.78',
    });
    expect(other.statusCode).not.toBe(429);
  });

  it('hold a "one at a time" lock for every instance, released by its holder, freed when it expires', async () => {
    const onFirst = new ExclusiveLocks(first.database.db);
    const onSecond = new ExclusiveLocks(second.database.db);
    const name = 'tracker.create:user-1';
    expect(await onFirst.acquire(name, 'request-a', 60_000)).toBe(true);
    expect(await onSecond.acquire(name, 'request-b', 60_000)).toBe(false);
    // Only the holder releases it.
    await onSecond.release(name, 'request-b');
    expect(await onSecond.acquire(name, 'request-b', 60_000)).toBe(false);
    await onFirst.release(name, 'request-a');
    expect(await onSecond.acquire(name, 'request-b', 50)).toBe(true);
    // A holder that died: the lock frees itself when it expires.
    await vi.waitFor(async () => expect(await onFirst.acquire(name, 'request-c', 60_000)).toBe(true), {
      timeout: 5_000,
      interval: 50,
    });
  });
});
