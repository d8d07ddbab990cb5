import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PlatformClient, type RateHeaders } from '@ce/platform-client';
import { injectFetch } from '../src/adapters/inject-fetch.js';
import { SharedRateBudgets } from '../src/core/rate-budget.js';
import { rateBudgets } from '../src/db/schema.js';
import { CustomerService } from '../src/modules/customer/customer.service.js';
import { createTestApp, type TestApp } from './build-test-app.js';

// The organizations' shared budget rows (core/rate-budget.ts), on the database the app runs on.
describe('the shared rate budget', () => {
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

  it('counts the calls still in flight when a window turns: the new window is not handed out in full on top of them', async () => {
    const budget = new SharedRateBudgets(app.database.db).for('org:window-turn');
    const probe = await budget.acquire();
    const firstReset = Date.now() + 1_500;
    await budget.release(rate(9, firstReset), probe);
    // Five calls sent in the first window, their answers not back yet.
    const inFlight = await Promise.all(Array.from({ length: 5 }, () => budget.acquire()));
    expect(inFlight.every((slot) => !slot.probe)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstReset + 300 - Date.now())));
    // The window has turned: one probe finds out what the platform counts in the new one (only itself so far).
    const next = await budget.acquire();
    expect(next.probe).toBe(true);
    await budget.release(rate(9, Date.now() + 60_000), next);
    // The five still out reach the platform in the new window: only 9 - 5 are left to hand out.
    expect((await row('org:window-turn'))?.remaining).toBe(4);
  });

  it('stops counting the calls of a holder paused or killed with them out once its count lapses, whoever keeps taking', async () => {
    const ttl = { inFlightTtlMs: 1_500 };
    const paused = new SharedRateBudgets(app.database.db, ttl).for('org:paused-holder');
    const live = new SharedRateBudgets(app.database.db, ttl).for('org:paused-holder');
    const probe = await live.acquire();
    await live.release(rate(9, Date.now() + 60_000), probe);
    // The paused process took 5 slots and never answers; the live one has 1 out of its own.
    await Promise.all(Array.from({ length: 5 }, () => paused.acquire()));
    const mineOut = await live.acquire();
    expect(mineOut.probe).toBe(false);
    // While the paused holder's count is live, a new window is handed out less all 6 calls out.
    const nextWindow = await live.acquire();
    await live.release(rate(9, Date.now() + 120_000), nextWindow);
    expect((await row('org:paused-holder'))?.remaining).toBe(3);
    // The live holder keeps taking (each take renews only its own count); the paused one's lapses.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await live.acquire();
    await new Promise((resolve) => setTimeout(resolve, 800));
    const turned = await live.acquire();
    await live.release(rate(9, Date.now() + 180_000), turned);
    // Only the live holder's own call still out weighs on the next window: 9 - 2 (the first one and one taken since).
    expect((await row('org:paused-holder'))?.remaining).toBe(7);
  });

  it('takes the window the platform names when it ends sooner than the one the row knew (a guessed wait, an old limit)', async () => {
    const budget = new SharedRateBudgets(app.database.db).for('org:sooner');
    const probe = await budget.acquire();
    // The row believes in a minute-long window with nothing left (a 429 without Reset, or a limit since changed).
    await budget.release(rate(0, Date.now() + 60_000), probe);
    expect(await row('org:sooner')).toMatchObject({ remaining: 0 });
    // The platform's answer names a window ending in 3 s with 7 left: that is the window, not the guess.
    await budget.merge(rate(7, Date.now() + 3_000));
    const known = await row('org:sooner');
    expect(known?.remaining).toBe(7);
    expect(known?.resetAt?.getTime()).toBeLessThan(Date.now() + 10_000);
    // An answer of a window already over (it arrived late) changes nothing.
    await budget.merge(rate(9, Date.now() - 1_000));
    expect((await row('org:sooner'))?.remaining).toBe(7);
  });

  it('serves interactive calls first and keeps the interactive share of a young window from background calls', async () => {
    const budget = new SharedRateBudgets(app.database.db, { backgroundShare: 0.5 }).for('org:lanes');
    const probe = await budget.acquire(undefined, 'background');
    await budget.release(rate(10, Date.now() + 60_000), probe);
    for (let call = 0; call < 5; call++) await budget.acquire(undefined, 'background');
    // Half of the window is held for people: the next background call waits, a person's call goes at once.
    const controller = new AbortController();
    let backgroundGot = false;
    const background = budget.acquire(controller.signal, 'background').then(
      () => (backgroundGot = true),
      () => false,
    );
    await budget.acquire(undefined, 'interactive');
    expect(backgroundGot).toBe(false);
    expect(await row('org:lanes')).toMatchObject({ remaining: 4, interactiveTaken: 1, backgroundTaken: 5 });
    controller.abort(new Error('test over'));
    await background;
  });

  it('keeps a share of the rest of the window for people who already took calls earlier in it', async () => {
    const budget = new SharedRateBudgets(app.database.db, { backgroundShare: 0.5 }).for('org:late-window');
    const probe = await budget.acquire(undefined, 'background');
    // 24 s of the window left: the interactive share of what is left of it is ceil(5 x 22/58) = 2 slots.
    await budget.release(rate(10, Date.now() + 24_000), probe);
    await budget.acquire(undefined, 'interactive');
    await budget.acquire(undefined, 'interactive');
    for (let call = 0; call < 6; call++) await budget.acquire(undefined, 'background');
    // The two taken before were the earlier time's: the next background call waits, a person's goes at once.
    const controller = new AbortController();
    let backgroundGot = false;
    const background = budget.acquire(controller.signal, 'background').then(
      () => (backgroundGot = true),
      () => false,
    );
    await budget.acquire(undefined, 'interactive');
    expect(backgroundGot).toBe(false);
    expect(await row('org:late-window')).toMatchObject({ remaining: 1, interactiveTaken: 3, backgroundTaken: 6 });
    controller.abort(new Error('test over'));
    await background;
  });

  it("spends one organization row for a web request's calls and a job's, after the token's first call", async () => {
    const sandbox = app.sandbox;
    if (!sandbox) throw new Error('the test app runs the embedded sandbox');
    const token = sandbox.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin');
    if (!token) throw new Error('the sandbox has an org admin token');
    const origin = 'http://sandbox.one-row';
    const answers: string[] = [];
    const platform = new PlatformClient({
      baseUrl: `${origin}/sandbox/te/v7`,
      fetch: injectFetch(app.app, origin),
      limiters: new SharedRateBudgets(app.database.db),
      observer: { waitedForBudget: () => undefined, answered: (key) => answers.push(key) },
    });
    // The token check (the wizard's first step), then a web request's calls and a job's, for the same organization.
    await new CustomerService(platform).accountGroups(token.token);
    await platform.as({ token: token.token }).accountGroups.list();
    await platform.as({ token: token.token }).users.current();
    await platform.as({ token: token.token, organizationId: token.orgId, lane: 'background' }).accountGroups.list();
    const organizationKey = `org:${token.orgId}`;
    expect(answers[0]).toMatch(/^token:/);
    expect(answers.slice(1)).toEqual([organizationKey, organizationKey, organizationKey]);
    // The organization's row knows every call the platform counted, the token's first one included.
    expect(sandbox.platform.organizations.get(token.orgId)).toEqual({ accepted: 4, refused429: 0 });
    const organizationRow = await row(organizationKey);
    expect(organizationRow?.callLimit).toBeGreaterThan(0);
    expect(organizationRow?.remaining).toBe((organizationRow?.callLimit ?? 0) - 4);
  });
});
