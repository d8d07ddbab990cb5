import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { PortfolioEntry } from '@ce/contract';
import { users, watchRuns, watches } from '../src/db/schema.js';
import {
  createTestApp,
  DATABASES,
  signedInClient,
  testClock,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const HOUR_MS = 3_600_000;
/** A Wednesday: its ISO week began on Monday 2 March, 00:00 UTC. */
const NOW = '2026-03-04T12:00:00Z';
const now = Date.parse(NOW);
const ALERT_RULES = 'Alert rules are set and active';

/**
 * What My customers reads of a customer's finished runs, as the database keeps them: the drift the latest backup
 * found (not a later run's, which took none), and a check that regressed this ISO week in three customers marked
 * common to those three, not to a fourth whose regression came before Monday nor for a check only one customer saw.
 */
describe.each(DATABASES)('My customers on %s: drift since the backup and common regressions', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;

  const watchOf = async (organizationId: string) => {
    const [user] = await testApp.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'tam@demo.local'));
    const [watch] = await testApp.database.db
      .insert(watches)
      .values({
        userId: user?.id ?? '',
        organizationId,
        organizationName: `Customer ${organizationId}`,
        accountGroups: [{ aid: `${organizationId}-1`, accountGroupName: 'Main' }],
        runs: 'both',
        schedule: { cadence: 'daily', weekday: null, time: '03:00', timeZone: 'UTC' },
        channel: { kind: 'owner' },
        speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
        status: 'active',
        nextRunAt: new Date(now + 24 * HOUR_MS),
      })
      .returning();
    if (!watch) throw new Error('no watch');
    return watch;
  };
  /** A finished run `hoursAgo` hours before NOW that kept these changes, with backups or not. */
  const runOf = async (
    watch: typeof watches.$inferSelect,
    hoursAgo: number,
    changes: { checks?: { title: string; before: string; after: string }[]; drift?: unknown[] },
    backups: boolean,
    score = 80,
  ) => {
    const at = new Date(now - hoursAgo * HOUR_MS);
    await testApp.database.db.insert(watchRuns).values({
      watchId: watch.id,
      userId: watch.userId,
      kind: 'both',
      organizationId: watch.organizationId,
      organizationName: watch.organizationName,
      accountGroups: watch.accountGroups,
      dueAt: at,
      trigger: 'schedule',
      status: 'done',
      createdAt: at,
      startedAt: at,
      finishedAt: at,
      score,
      backups: backups ? [{ aid: `${watch.organizationId}-1`, backupId: crypto.randomUUID() }] : null,
      changes: { checks: [], drift: [], openFindings: 0, waived: [], othersWaivers: [], ...changes },
      deliveryStatus: 'sent',
    });
  };
  const regressed = (title: string) => ({ checks: [{ title, before: 'pass', after: 'warn' }] });

  beforeAll(async () => {
    testApp = await createTestApp(kind, { WATCH_RUN_NOW_EVERY_MINUTES: '0' }, { clock: testClock(NOW) });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    const [a, b, c, d] = await Promise.all(['org-a', 'org-b', 'org-c', 'org-d'].map(watchOf));
    if (!a || !b || !c || !d) throw new Error('no watches');
    // org-a: a backup 30 h ago found two drift lines, a later run took no backup; it alone saw agents fail.
    await runOf(a, 30, { drift: [{ line: 1 }, { line: 2 }] }, true);
    await runOf(a, 6, { ...regressed(ALERT_RULES), drift: [] }, false);
    await runOf(a, 5, { checks: [{ title: 'Agents are online', before: 'pass', after: 'fail' }] }, false);
    await runOf(b, 20, regressed(ALERT_RULES), true);
    await runOf(c, 2, { checks: [{ title: ALERT_RULES, before: 'pass', after: 'fail' }] }, true);
    // org-d regressed on Sunday, before this ISO week; and one of its checks recovered this week.
    await runOf(d, 70, regressed(ALERT_RULES), true);
    await runOf(d, 3, { checks: [{ title: ALERT_RULES, before: 'warn', after: 'pass' }] }, true);
  });
  afterAll(() => testApp?.close());

  it('draws one trend from the runs of two watches over one customer, and says the score’s fall since last week', async () => {
    const [first, second] = [await watchOf('org-e'), await watchOf('org-e')];
    // Daily runs of either watch, older to newer: 90 a week ago, then 88, 86, 75, 70 (the latest, of the second).
    await runOf(first, 7 * 24 + 2, {}, false, 90);
    await runOf(second, 3 * 24, {}, false, 88);
    await runOf(first, 2 * 24, {}, false, 86);
    await runOf(first, 24, {}, false, 75);
    await runOf(second, 2, {}, false, 70);
    const answer = await tam.request({ method: 'GET', url: '/api/watch-portfolio' });
    const entry = answer.json<{ customers: PortfolioEntry[] }>().customers.find((e) => e.organizationId === 'org-e');
    expect(entry).toMatchObject({ watches: 2, score: 70, trend: [88, 86, 75, 70], change: -18, state: 'red' });
    expect(entry?.reasons[0]).toBe('score −20 since last week');
    expect(entry?.lastRunAt).toBe(new Date(now - 2 * HOUR_MS).toISOString());
    expect(entry?.lastBackupAt).toBeNull();
  });

  it('marks the check three customers regressed this week as common to them, and says the drift since the backup', async () => {
    const answer = await tam.request({ method: 'GET', url: '/api/watch-portfolio' });
    expect(answer.statusCode, answer.body).toBe(200);
    const byId = new Map(
      answer.json<{ customers: PortfolioEntry[] }>().customers.map((entry) => [entry.organizationId, entry]),
    );
    expect(byId.get('org-a')?.commonRegressions).toEqual([ALERT_RULES]);
    expect(byId.get('org-b')?.commonRegressions).toEqual([ALERT_RULES]);
    expect(byId.get('org-c')?.commonRegressions).toEqual([ALERT_RULES]);
    expect(byId.get('org-d')?.commonRegressions).toEqual([]);
    expect(byId.get('org-a')?.reasons.join(' · ')).toContain(ALERT_RULES);
    expect(byId.get('org-a')?.driftSinceBackup).toBe(2);
    expect(byId.get('org-a')?.lastBackupAt).toBe(new Date(now - 30 * HOUR_MS).toISOString());
    expect(byId.get('org-b')?.driftSinceBackup).toBe(0);
  });

  it('reads kept changes that are not what a run writes today without failing the list', async () => {
    const [watch] = await testApp.database.db.select().from(watches).where(eq(watches.organizationId, 'org-b'));
    if (!watch) throw new Error('no watch');
    await runOf(watch, 1, {}, true);
    await testApp.database.db.execute(
      sql`update ${watchRuns} set changes = '{"checks": "not a list", "drift": {"odd": true}}'::jsonb
        where watch_id = ${watch.id} and created_at = ${new Date(now - HOUR_MS)}`,
    );
    const answer = await tam.request({ method: 'GET', url: '/api/watch-portfolio' });
    expect(answer.statusCode, answer.body).toBe(200);
    const entry = answer.json<{ customers: PortfolioEntry[] }>().customers.find((e) => e.organizationId === 'org-b');
    expect(entry?.driftSinceBackup).toBe(0);
    expect(entry?.commonRegressions).toEqual([ALERT_RULES]);
  });
});
