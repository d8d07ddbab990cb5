import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Watch } from '@ce/contract';
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

describe('Account Watch: watches and the token each keeps with consent', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let superUser: TestClient;
  let engineering: TestClient;
  let customer: SandboxCustomer;
  let now = NOW;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_TOKEN_MAX_DAYS: '30' }, { clock: () => now });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const sealedCount = async () =>
    Number((await sql<{ n: number }>('select count(*)::int as n from sealed_tokens'))[0]?.n);

  const consent = { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 };
  const settings = () => ({
    accountGroups: customer.groups.slice(0, 1),
    runs: 'health',
    schedule: { cadence: 'weekly', weekday: 1, time: '07:30', timeZone: 'Europe/Paris' },
    channel: { kind: 'owner' },
    speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
  });
  const create = async (client: TestClient, overrides: Record<string, unknown> = {}) =>
    client.request({
      method: 'POST',
      url: '/api/watches',
      payload: { ...settings(), token: customer.token, organization: customer.organization, consent, ...overrides },
    });

  it('is created only with consent, keeps the token sealed and never answers it back, and knows its next run', async () => {
    const refused = await create(tam, { consent: { ...consent, contactName: '' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('name the contact who approved it');
    const tooLong = await create(tam, { consent: { ...consent, days: 31 } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe('A stored token may be kept at most 30 days.');
    expect(await sealedCount()).toBe(0);

    const response = await create(tam);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.body).not.toContain(customer.token);
    const watch = response.json<Watch>();
    expect(watch).toMatchObject({
      organizationId: customer.organization.id,
      organizationName: customer.organization.name,
      owner: { email: 'tam@demo.local' },
      status: 'active',
      pausedReason: null,
      // Monday 2026-11-30 07:30 in Paris (UTC+1).
      nextRunAt: '2026-11-30T06:30:00.000Z',
      token: {
        last4: customer.token.slice(-4),
        contactName: 'Dana Admin',
        contactEmail: 'dana@acme.example',
        storedBy: { email: 'tam@demo.local' },
        expiresAt: '2026-12-27T10:00:00.000Z',
      },
    });
    // Sealed in its own row; the watch row holds no clear copy, nor does any other.
    expect(await sealedCount()).toBe(1);
    const everything =
      JSON.stringify(await sql('select * from watches')) + JSON.stringify(await sql('select * from audit_log'));
    expect(everything).not.toContain(customer.token);
    // The token sweep keeps a token a watch names.
    await testApp.tokens.sweep();
    expect(await sealedCount()).toBe(1);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('refuses an organization the token does not reach, and a role that cannot run what it runs', async () => {
    const elsewhere = await create(tam, { organization: { id: '999999', name: 'Elsewhere' } });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.message).toBe('This token does not belong to the selected organization.');
    // Engineering runs the health check but makes no backups: a watch that backs up is refused.
    const backups = await create(engineering, { runs: 'both' });
    expect(backups.statusCode).toBe(403);
    expect(backups.json().error.message).toBe('Your role cannot make the backups a watch makes.');
    expect(await sealedCount()).toBe(0);
  });

  it("is its owner's (and Super Users'): others do not see it", async () => {
    const watch = (await create(tam)).json<Watch>();
    const other = await signedInClient(testApp.app, 'adoption@demo.local');
    expect((await other.request({ method: 'GET', url: `/api/watches/${watch.id}` })).statusCode).toBe(404);
    expect((await other.request({ method: 'GET', url: '/api/watches' })).json().watches).toEqual([]);
    expect((await other.request({ method: 'GET', url: '/api/watches?everyone=true' })).statusCode).toBe(403);
    const all = (await superUser.request({ method: 'GET', url: '/api/watches?everyone=true' })).json<{
      watches: Watch[];
    }>();
    expect(all.watches.map((each) => each.id)).toContain(watch.id);
    expect((await superUser.request({ method: 'POST', url: `/api/watches/${watch.id}/pause` })).json().status).toBe(
      'paused',
    );
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
    expect(await sealedCount()).toBe(0);
  });

  it('pauses, resumes from now, and edits its schedule', async () => {
    const watch = (await create(tam)).json<Watch>();
    const paused = (await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/pause` })).json<Watch>();
    expect(paused).toMatchObject({ status: 'paused', pausedReason: 'Paused by its owner.', nextRunAt: null });
    // The token stays while paused by its owner.
    expect(paused.token?.last4).toBe(customer.token.slice(-4));
    now = new Date('2026-11-30T07:00:00Z');
    const resumed = (await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/resume` })).json<Watch>();
    // Monday's 07:30 Paris has passed: next Monday.
    expect(resumed).toMatchObject({ status: 'active', nextRunAt: '2026-12-07T06:30:00.000Z' });
    const edited = await tam.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}`,
      payload: { ...settings(), schedule: { cadence: 'daily', weekday: null, time: '18:00', timeZone: 'Asia/Tokyo' } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // 18:00 in Tokyo (UTC+9) on the 30th is 09:00 UTC: after 07:00 UTC, so today.
    expect(edited.json<Watch>().nextRunAt).toBe('2026-11-30T09:00:00.000Z');
    const weekly = await tam.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}`,
      payload: { ...settings(), schedule: { cadence: 'weekly', weekday: null, time: '18:00', timeZone: 'Asia/Tokyo' } },
    });
    expect(weekly.statusCode).toBe(400);
    expect(weekly.body).toContain('A weekly watch runs on one day of the week');
    now = NOW;
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('on revocation erases the token at once (no sealed copy left) and pauses until a new one is stored', async () => {
    const watch = (await create(tam)).json<Watch>();
    expect(await sealedCount()).toBe(1);
    const revoked = (await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}/token` })).json<Watch>();
    expect(revoked).toMatchObject({ status: 'paused', pausedReason: 'The stored token was revoked.', token: null });
    expect(await sealedCount()).toBe(0);
    expect((await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/resume` })).statusCode).toBe(409);

    const stored = await tam.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}/token`,
      payload: { token: customer.token, consent: { ...consent, contactName: 'Eli Admin', days: 7 } },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json<Watch>()).toMatchObject({
      status: 'active',
      pausedReason: null,
      token: { contactName: 'Eli Admin', expiresAt: '2026-12-04T10:00:00.000Z' },
    });
    expect(await sealedCount()).toBe(1);
    const audit = await sql<{ action: string }>(
      `select action from audit_log where action like 'watch.%' order by created_at`,
    );
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['watch.created', 'watch.token-stored', 'watch.token-erased']),
    );
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('stores a time zone by its canonical name, and refuses offsets, control characters and repeated groups', async () => {
    const watch = (
      await create(tam, {
        schedule: { cadence: 'daily', weekday: null, time: '08:00', timeZone: 'eUrOpE/pArIs' },
      })
    ).json<Watch>();
    expect(watch.schedule.timeZone).toBe('Europe/Paris');
    const refused = async (overrides: Record<string, unknown>) => (await create(tam, overrides)).statusCode;
    expect(await refused({ schedule: { cadence: 'daily', weekday: null, time: '08:00', timeZone: '+05:30' } })).toBe(
      400,
    );
    expect(await refused({ channel: { kind: 'room', roomId: 'Y2lz\u0000Y28' } })).toBe(400);
    expect(await refused({ channel: { kind: 'room', roomId: '<b>room</b>' } })).toBe(400);
    expect(await refused({ consent: { ...consent, contactName: 'Dana\u0000' } })).toBe(400);
    const group = customer.groups[0];
    expect(await refused({ accountGroups: [group, group] })).toBe(400);
    expect(await sealedCount()).toBe(1);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('stops, token erased, when an edit meets a platform 401 with the stored token', async () => {
    const watch = (await create(tam)).json<Watch>();
    testApp.sandbox?.platform.world.tokens.forEach((candidate) => {
      if (candidate.token === customer.token) candidate.kind = 'revoked';
    });
    try {
      const edited = await tam.request({
        method: 'PUT',
        url: `/api/watches/${watch.id}`,
        payload: { ...settings(), accountGroups: customer.groups.slice(0, 2) },
      });
      expect(edited.statusCode).toBe(401);
      const stopped = (await tam.request({ method: 'GET', url: `/api/watches/${watch.id}` })).json<Watch>();
      expect(stopped).toMatchObject({ status: 'paused', token: null });
      expect(stopped.pausedReason).toContain('The platform refused the stored token');
      expect(await sealedCount()).toBe(0);
    } finally {
      testApp.sandbox?.platform.world.tokens.forEach((candidate) => {
        if (candidate.token === customer.token) candidate.kind = 'org-admin';
      });
    }
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it("ends with its consent's expiry, and with its owner's deactivation", async () => {
    const expiring = (await create(tam, { consent: { ...consent, days: 1 } })).json<Watch>();
    const other = (await create(tam)).json<Watch>();
    now = new Date(NOW.getTime() + 86_400_000);
    expect(await testApp.services.watches.expire()).toBe(1);
    const expired = (await tam.request({ method: 'GET', url: `/api/watches/${expiring.id}` })).json<Watch>();
    expect(expired).toMatchObject({ status: 'paused', token: null });
    expect(expired.pausedReason).toContain('expired');
    expect(await sealedCount()).toBe(1);
    now = NOW;

    const users = (await superUser.request({ method: 'GET', url: '/api/users' })).json<{
      users: { id: string; email: string }[];
    }>();
    const tamId = users.users.find((user) => user.email === 'tam@demo.local')?.id;
    expect(
      (await superUser.request({ method: 'PATCH', url: `/api/users/${tamId}`, payload: { disabled: true } }))
        .statusCode,
    ).toBe(200);
    const ended = (await superUser.request({ method: 'GET', url: `/api/watches/${other.id}` })).json<Watch>();
    expect(ended).toMatchObject({ status: 'paused', pausedReason: 'Its owner was deactivated.', token: null });
    expect(await sealedCount()).toBe(0);
    // A Super User cannot bring it back for a deactivated owner.
    const again = await superUser.request({
      method: 'PUT',
      url: `/api/watches/${other.id}/token`,
      payload: { token: customer.token, consent },
    });
    expect(again.statusCode).toBe(409);
    expect(await sealedCount()).toBe(0);
    await superUser.request({ method: 'PATCH', url: `/api/users/${tamId}`, payload: { disabled: false } });
  });

  it("stops a watch its owner paused when the owner is deactivated, and one whose owner's role no longer runs it", async () => {
    const users = (await superUser.request({ method: 'GET', url: '/api/users' })).json<{
      users: { id: string; email: string }[];
    }>();
    const idOf = (email: string) => users.users.find((user) => user.email === email)?.id;
    const proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    const paused = (await create(proserv)).json<Watch>();
    await proserv.request({ method: 'POST', url: `/api/watches/${paused.id}/pause` });
    const pmo = await signedInClient(testApp.app, 'pmo@demo.local');
    const demoted = (await create(pmo)).json<Watch>();
    expect(await sealedCount()).toBe(2);

    await superUser.request({
      method: 'PATCH',
      url: `/api/users/${idOf('proserv@demo.local')}`,
      payload: { disabled: true },
    });
    await superUser.request({
      method: 'PATCH',
      url: `/api/users/${idOf('pmo@demo.local')}`,
      payload: { role: 'User' },
    });
    const read = async (id: string) =>
      (await superUser.request({ method: 'GET', url: `/api/watches/${id}` })).json<Watch>();
    expect(await read(paused.id)).toMatchObject({ pausedReason: 'Its owner was deactivated.', token: null });
    expect(await read(demoted.id)).toMatchObject({
      status: 'paused',
      pausedReason: 'Its owner’s role no longer runs what it runs.',
      token: null,
    });
    expect(await sealedCount()).toBe(0);
    await superUser.request({
      method: 'PATCH',
      url: `/api/users/${idOf('proserv@demo.local')}`,
      payload: { disabled: false },
    });
    await superUser.request({ method: 'PATCH', url: `/api/users/${idOf('pmo@demo.local')}`, payload: { role: 'PMO' } });
    await superUser.request({ method: 'DELETE', url: `/api/watches/${paused.id}` });
    await superUser.request({ method: 'DELETE', url: `/api/watches/${demoted.id}` });
  });

  it('is out of reach of a personal API token that does not carry what the watch runs', async () => {
    const watch = (await create(tam)).json<Watch>();
    const made = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'support only', expiresInDays: 7, capabilities: ['support'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const secret = made.json<{ secret: string }>().secret;
    const script = (method: 'GET' | 'DELETE' | 'POST', url: string) =>
      testApp.app.inject({ method, url, headers: { authorization: `Bearer ${secret}` } });
    expect((await script('GET', '/api/watches')).json().watches).toEqual([]);
    expect((await script('GET', `/api/watches/${watch.id}`)).statusCode).toBe(403);
    expect((await script('DELETE', `/api/watches/${watch.id}/token`)).statusCode).toBe(403);
    expect((await script('DELETE', `/api/watches/${watch.id}`)).statusCode).toBe(403);
    expect(await sealedCount()).toBe(1);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });
});
