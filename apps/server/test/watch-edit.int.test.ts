import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_MESSAGES, type Watch } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

/** Friday 2026-11-27 10:00 UTC, fixed: due times are exact. */
const NOW = new Date('2026-11-27T10:00:00Z');

// A watch's edit (PUT /api/watches/:id, its card's Edit): its owner's or a Super User's, within what the caller's
// role runs, audited, answered with the next run the new schedule gives.
describe('Account Watch: changing a watch after it is made', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let superUser: TestClient;
  let customer: SandboxCustomer;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', {}, { clock: () => NOW });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const audited = async (watchId: string) =>
    (
      await testApp.database.sql.executeSql(
        "select actor_email as actor, target from audit_log where action = 'watch.changed' and detail->>'watchId' = $1 order by created_at",
        [watchId],
      )
    ).rows as { actor: string; target: string }[];
  const settings = (overrides: Record<string, unknown> = {}) => ({
    accountGroups: customer.groups.slice(0, 1),
    runs: 'health',
    schedule: { cadence: 'weekly', weekday: 1, time: '07:30', timeZone: 'Europe/Paris' },
    channel: { kind: 'owner' },
    speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
    ...overrides,
  });
  const create = async (client: TestClient, overrides: Record<string, unknown> = {}) => {
    const made = await client.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        ...settings(overrides),
        token: customer.token,
        organization: customer.organization,
        consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<Watch>();
  };
  const edit = (client: TestClient, id: string, overrides: Record<string, unknown> = {}) =>
    client.request({ method: 'PUT', url: `/api/watches/${id}`, payload: settings(overrides) });

  it('answers the new settings with the next run of the new schedule, and is audited', async () => {
    const watch = await create(tam);
    expect(watch.nextRunAt).toBe('2026-11-30T06:30:00.000Z');
    const edited = await edit(tam, watch.id, {
      schedule: { cadence: 'daily', weekday: null, time: '18:00', timeZone: 'UTC' },
      speakWhen: { anyChange: false, scoreDrop: 5, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
      monthlyReviewPack: true,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Watch>()).toMatchObject({
      schedule: { cadence: 'daily', weekday: null, time: '18:00', timeZone: 'UTC' },
      speakWhen: { anyChange: false, scoreDrop: 5 },
      monthlyReviewPack: true,
      // Today, 18:00 UTC: after 10:00.
      nextRunAt: '2026-11-27T18:00:00.000Z',
      organizationId: customer.organization.id,
    });
    // Kept: read again, it is the same.
    const read = (await tam.request({ method: 'GET', url: `/api/watches/${watch.id}` })).json<Watch>();
    expect(read).toMatchObject({ nextRunAt: '2026-11-27T18:00:00.000Z', monthlyReviewPack: true });
    // A request without the duty leaves it as it was.
    expect((await edit(tam, watch.id)).json<Watch>().monthlyReviewPack).toBe(true);
    expect(await audited(watch.id)).toEqual([
      { actor: 'tam@demo.local', target: customer.organization.name },
      { actor: 'tam@demo.local', target: customer.organization.name },
    ]);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it("is its owner's and a Super User's only; unknown watches answer 404", async () => {
    const watch = await create(tam);
    const adoption = await signedInClient(testApp.app, 'adoption@demo.local');
    const refused = await edit(adoption, watch.id, { runs: 'backup' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toBe(WATCH_MESSAGES.notFound);
    const byAdmin = await edit(superUser, watch.id, {
      schedule: { cadence: 'weekly', weekday: 3, time: '09:00', timeZone: 'UTC' },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    // Wednesday 2 December, 09:00 UTC; the owner stays the owner.
    expect(byAdmin.json<Watch>()).toMatchObject({
      nextRunAt: '2026-12-02T09:00:00.000Z',
      owner: { email: 'tam@demo.local' },
    });
    expect((await audited(watch.id)).map((row) => row.actor)).toEqual(['superuser@demo.local']);
    const missing = await edit(tam, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('refuses what the caller cannot run and a review pack without the health check, each beside its field', async () => {
    const engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    const watch = await create(engineering);
    // Engineering runs the health check but makes no backups.
    const backups = await edit(engineering, watch.id, { runs: 'both' });
    expect(backups.statusCode).toBe(403);
    expect(backups.json().error.message).toBe('Your role cannot make the backups a watch makes.');
    const backupOnly = await create(tam, { runs: 'backup' });
    const pack = await edit(tam, backupOnly.id, { runs: 'backup', monthlyReviewPack: true });
    expect(pack.statusCode).toBe(400);
    expect(pack.json().error.fields).toEqual([{ path: 'monthlyReviewPack', message: WATCH_MESSAGES.packNeedsHealth }]);
    const weekday = await edit(engineering, watch.id, {
      schedule: { cadence: 'weekly', weekday: null, time: '07:00', timeZone: 'UTC' },
    });
    expect(weekday.statusCode).toBe(400);
    expect(weekday.json().error.fields).toContainEqual({
      path: 'schedule.weekday',
      message: WATCH_MESSAGES.weekdayRequired,
    });
    // Nothing refused was kept, nor audited.
    const kept = (await engineering.request({ method: 'GET', url: `/api/watches/${watch.id}` })).json<Watch>();
    expect(kept).toMatchObject({ runs: 'health', schedule: { cadence: 'weekly', weekday: 1 } });
    expect(await audited(watch.id)).toEqual([]);
    await engineering.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
    await tam.request({ method: 'DELETE', url: `/api/watches/${backupOnly.id}` });
  });

  it('keeps a paused watch paused, with no next run, whatever its new schedule', async () => {
    const watch = await create(tam);
    await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/pause` });
    const edited = await edit(tam, watch.id, {
      schedule: { cadence: 'daily', weekday: null, time: '12:00', timeZone: 'UTC' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Watch>()).toMatchObject({ status: 'paused', nextRunAt: null, schedule: { cadence: 'daily' } });
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('refuses an edit made from a watch that was changed since, losing neither change', async () => {
    const watch = await create(tam);
    const daily = { cadence: 'daily', weekday: null, time: '12:00', timeZone: 'UTC' };
    // Two forms opened on the same watch: the first saved wins, the second is told, not applied over it.
    const first = await edit(tam, watch.id, { schedule: daily, expectedUpdatedAt: watch.updatedAt });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<Watch>().updatedAt > watch.updatedAt).toBe(true);
    const second = await edit(superUser, watch.id, { runs: 'backup', expectedUpdatedAt: watch.updatedAt });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatchObject({ code: 'watch_changed', message: WATCH_MESSAGES.changedMeanwhile });
    // Paused since the form was opened: the edit made from before the pause is refused too.
    const opened = (await tam.request({ method: 'GET', url: `/api/watches/${watch.id}` })).json<Watch>();
    await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/pause` });
    const afterPause = await edit(tam, watch.id, { expectedUpdatedAt: opened.updatedAt });
    expect(afterPause.statusCode).toBe(409);
    const kept = (await tam.request({ method: 'GET', url: `/api/watches/${watch.id}` })).json<Watch>();
    expect(kept).toMatchObject({ runs: 'health', schedule: daily, status: 'paused', nextRunAt: null });
    expect((await audited(watch.id)).map((row) => row.actor)).toEqual(['tam@demo.local']);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });
});
