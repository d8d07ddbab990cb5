import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { RateHeaders } from '@ce/platform-client';
import { SharedRateBudgets } from '../src/core/rate-budget.js';
import { rateBudgets } from '../src/db/schema.js';
import { createTestApp, type TestApp } from './build-test-app.js';

// Issue 55: the organizations' shared budget rows (core/rate-budget.ts) cap scheduled work at its share of a window.
describe('the shared rate budget and scheduled work', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const row = async (key: string) => {
    const [found] = await app.database.db.select().from(rateBudgets).where(eq(rateBudgets.key, key));
    return found;
  };
  const rate = (remaining: number, resetAt: number, limit = 10): RateHeaders => ({ limit, remaining, resetAt });

  it('hands scheduled calls at most PLATFORM_SCHEDULED_SHARE of a window; the rest stays for people and the customer', async () => {
    const budget = new SharedRateBudgets(app.database.db, { backgroundShare: 0.5, scheduledShare: 0.5 }).for(
      'org:scheduled',
    );
    const probe = await budget.acquire(undefined, 'scheduled');
    await budget.release(rate(10, Date.now() + 60_000), probe);
    const taken = [];
    for (let call = 0; call < 5; call++) taken.push(await budget.acquire(undefined, 'scheduled'));
    expect(await row('org:scheduled')).toMatchObject({ remaining: 5, scheduledTaken: 5, backgroundTaken: 5 });
    // A sixth scheduled call waits for the next window; a person's call goes at once.
    const controller = new AbortController();
    let scheduledGot = false;
    const scheduled = budget.acquire(controller.signal, 'scheduled').then(
      () => (scheduledGot = true),
      () => false,
    );
    taken.push(await budget.acquire(undefined, 'interactive'));
    taken.push(await budget.acquire(undefined, 'interactive'));
    expect(scheduledGot).toBe(false);
    expect(await row('org:scheduled')).toMatchObject({ remaining: 3, scheduledTaken: 5, interactiveTaken: 2 });
    controller.abort(new Error('test over'));
    await scheduled;
    expect(scheduledGot).toBe(false);
    // A later window opens the share again.
    for (const slot of taken) await budget.release(undefined, slot);
    await budget.merge(rate(10, Date.now() + 120_000));
    expect(await row('org:scheduled')).toMatchObject({ scheduledTaken: 0 });
    await budget.acquire(undefined, 'scheduled');
    expect(await row('org:scheduled')).toMatchObject({ scheduledTaken: 1 });
  });
});
