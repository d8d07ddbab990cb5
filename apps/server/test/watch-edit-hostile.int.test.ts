import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_MESSAGES, WATCH_MESSAGES, type Watch } from '@ce/contract';
import {
  createTestApp,
  DATABASES,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const DAY_MS = 86_400_000;

/**
 * A watch's edit (`PUT /api/watches/:id`, decision 0040) as a careless or hostile caller uses it: after the consent
 * ended but before the minute's sweep erased the token, from a script's token that does not carry what the watch
 * runs, twice at once (applied whole, or the second refused as changed meanwhile), on a deleted watch, and with a schedule across a daylight-saving change.
 */
describe.each(DATABASES)('Account Watch: a watch edited the wrong way (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  /** The app's clock: moved by the tests. */
  let now = new Date('2026-03-28T10:00:00Z');

  const settings = (overrides: Record<string, unknown> = {}) => ({
    accountGroups: customer.groups.slice(0, 1),
    runs: 'health',
    schedule: { cadence: 'daily', weekday: null, time: '07:30', timeZone: 'Europe/Paris' },
    channel: { kind: 'owner' },
    speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}) => {
    const made = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        ...settings(overrides),
        token: customer.token,
        organization: customer.organization,
        consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 1 },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<Watch>();
  };
  const edit = (id: string, overrides: Record<string, unknown> = {}) =>
    tam.request({ method: 'PUT', url: `/api/watches/${id}`, payload: settings(overrides) });
  const read = async (id: string) => (await tam.request({ method: 'GET', url: `/api/watches/${id}` })).json<Watch>();
  const sealed = async (id: string) =>
    (
      await testApp.database.sql.executeSql(
        'select count(*)::int as n from sealed_tokens where id = (select token_id from watches where id = $1)',
        [id],
      )
    ).rows;

  beforeAll(async () => {
    testApp = await createTestApp(kind, {}, { clock: () => now });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  }, 120_000);
  afterAll(async () => {
    await testApp.close();
  });

  it('does not use a token past its consent to check an added account group: the token goes, the watch pauses', async () => {
    now = new Date('2026-03-28T10:00:00Z');
    const watch = await create();
    // Two days on: the one-day consent ended, and no sweep has erased the token yet (a worker paused, or its minute).
    now = new Date(now.getTime() + 2 * DAY_MS);
    const added = await edit(watch.id, { accountGroups: customer.groups.slice(0, 2) });
    expect(added.statusCode, added.body).toBe(409);
    expect(added.json().error.message).toBe(WATCH_MESSAGES.consentExpired);
    expect(await read(watch.id)).toMatchObject({
      status: 'paused',
      nextRunAt: null,
      accountGroups: customer.groups.slice(0, 1),
    });
    expect(await sealed(watch.id)).toEqual([{ n: 0 }]);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it("refuses a script's token the edit of what it does not carry, and changes nothing", async () => {
    now = new Date('2026-03-28T10:00:00Z');
    const watch = await create();
    const tokenOf = async (capabilities: string[]) => {
      const made = await tam.request({
        method: 'POST',
        url: '/api/account/api-tokens',
        payload: { name: `edit ${capabilities.join(' ')}`, expiresInDays: 1, capabilities },
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json<{ secret: string }>().secret;
    };
    const script = (secret: string, overrides: Record<string, unknown>) =>
      testApp.app.inject({
        method: 'PUT',
        url: `/api/watches/${watch.id}`,
        headers: { authorization: `Bearer ${secret}` },
        payload: settings(overrides),
      });
    // The health check's capability only: backups are not its to add.
    const health = await script(await tokenOf(['healthCheck']), { runs: 'both' });
    expect(health.statusCode).toBe(403);
    expect(health.json().error.message).toBe(API_TOKEN_MESSAGES.notCarried(['tools']));
    // The backups' only: the health watch is not within its reach, even to make it a backup watch.
    const tools = await script(await tokenOf(['tools']), { runs: 'backup' });
    expect(tools.statusCode).toBe(403);
    expect(tools.json().error.message).toBe(API_TOKEN_MESSAGES.notCarried(['healthCheck']));
    expect(await read(watch.id)).toMatchObject({ runs: 'health', schedule: { time: '07:30' } });
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('takes two edits at once whole, one or the other, never a mix; a deleted watch is not found', async () => {
    now = new Date('2026-03-28T10:00:00Z');
    const watch = await create();
    const one = settings({
      runs: 'both',
      schedule: { cadence: 'daily', weekday: null, time: '06:00', timeZone: 'UTC' },
    });
    const two = settings({
      runs: 'health',
      schedule: { cadence: 'weekly', weekday: 2, time: '18:15', timeZone: 'Asia/Tokyo' },
      speakWhen: { anyChange: false, scoreDrop: 3, newFindingsAtLeast: null, drift: false, weeklyQuietLine: true },
    });
    const answers = await Promise.all(
      [one, two].map((payload) => tam.request({ method: 'PUT', url: `/api/watches/${watch.id}`, payload })),
    );
    // Both applied one after the other, or the second told the watch changed under it (409): never a 500.
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses).toContain(200);
    for (const answer of answers)
      if (answer.statusCode !== 200) expect(answer.json().error.code, answer.body).toBe('watch_changed');
    const kept = await read(watch.id);
    const whole = (sent: typeof one) => ({ runs: sent.runs, schedule: sent.schedule, speakWhen: sent.speakWhen });
    const applied = [one, two].filter((_, index) => statuses[index] === 200).map(whole);
    expect(applied).toContainEqual({ runs: kept.runs, schedule: kept.schedule, speakWhen: kept.speakWhen });
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
    const gone = await edit(watch.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe(WATCH_MESSAGES.notFound);
  });

  it("moves the next run across a daylight-saving change in the watch's own zone", async () => {
    // Saturday 28 March 2026: Paris springs forward that night, 02:00 to 03:00.
    now = new Date('2026-03-28T10:00:00Z');
    const watch = await create();
    const springs = await edit(watch.id, {
      schedule: { cadence: 'daily', weekday: null, time: '02:30', timeZone: 'Europe/Paris' },
    });
    // 02:30 does not exist on the 29th: it comes an hour late, 03:30 CEST.
    expect(springs.json<Watch>().nextRunAt).toBe('2026-03-29T01:30:00.000Z');
    const after = await edit(watch.id, {
      schedule: { cadence: 'weekly', weekday: 1, time: '07:30', timeZone: 'Europe/Paris' },
    });
    // Monday 30 March, 07:30 CEST (UTC+2 now, not +1).
    expect(after.json<Watch>().nextRunAt).toBe('2026-03-30T05:30:00.000Z');
    // Saturday 24 October: Paris falls back the next night, 03:00 to 02:00; 02:30 is shown twice, the first is due.
    now = new Date('2026-10-24T10:00:00Z');
    const falls = await edit(watch.id, {
      schedule: { cadence: 'daily', weekday: null, time: '02:30', timeZone: 'Europe/Paris' },
    });
    expect(falls.json<Watch>().nextRunAt).toBe('2026-10-25T00:30:00.000Z');
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });
});
