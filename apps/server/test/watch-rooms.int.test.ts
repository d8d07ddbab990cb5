import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_MESSAGES, type Watch, type WatchRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// Issue 55: a watch speaks in a Webex room only while its owner is a member of it (Webex's memberships).
describe('Account Watch rooms: only rooms the owner is in, when saved and before each message', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** The sandbox's Webex, as the bot calls it. */
  const webex = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url: `/sandbox/webex${url}`,
      headers: { authorization: `Bearer ${testApp.sandbox?.webexBotToken ?? ''}` },
      ...(payload ? { payload } : {}),
    });
  const room = async (title: string) => {
    const made = await webex('POST', '/v1/rooms', { title });
    expect(made.statusCode, made.body).toBe(200);
    return made.json<{ id: string }>().id;
  };
  const join = async (roomId: string, personEmail: string) => {
    const joined = await webex('POST', '/v1/memberships', { roomId, personEmail });
    expect(joined.statusCode, joined.body).toBe(200);
    return joined.json<{ id: string }>().id;
  };
  const settings = (roomId: string) => ({
    accountGroups: customer.groups.slice(0, 1),
    runs: 'health',
    schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
    channel: { kind: 'room', roomId },
    speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
  });
  const create = (roomId: string) =>
    tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        ...settings(roomId),
        token: customer.token,
        organization: customer.organization,
        consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
      },
    });
  const run = async (watch: Watch) => {
    const started = (await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` })).json<WatchRun>();
    return untilFinished(async () => {
      const { runs } = (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>();
      return runs.find((candidate) => candidate.id === started.id) ?? started;
    }, 120_000);
  };
  const inRoom = (roomId: string) => (testApp.sandbox?.webex.messages ?? []).filter((m) => m.roomId === roomId);

  it("answers memberships as Webex does: a room's, one person's in it, and 404 for a room the bot is not in", async () => {
    const roomId = await room('Acme escalations');
    await join(roomId, 'tam@demo.local');
    const one = await webex('GET', `/v1/memberships?roomId=${roomId}&personEmail=tam%40demo.local`);
    expect(one.statusCode).toBe(200);
    expect(one.json().items).toEqual([
      expect.objectContaining({
        roomId,
        personEmail: 'tam@demo.local',
        personId: expect.any(String),
        isModerator: false,
        roomType: 'group',
        created: expect.any(String),
      }),
    ]);
    const nobody = await webex('GET', `/v1/memberships?roomId=${roomId}&personEmail=someone%40else.example`);
    expect(nobody.json()).toEqual({ items: [] });
    expect((await webex('GET', `/v1/memberships?roomId=${roomId}`)).json().items).toHaveLength(2);
    const unknown = await webex('GET', '/v1/memberships?roomId=Y2lzY29zcGFyazovL3VzL1JPT00vbm9uZQ&personEmail=a%40b.c');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Could not find a room with provided ID.');
    expect((await webex('GET', '/v1/memberships?personEmail=tam%40demo.local')).statusCode).toBe(400);
    expect((await testApp.app.inject({ method: 'GET', url: '/sandbox/webex/v1/memberships' })).statusCode).toBe(401);
  });

  it('refuses, in words, a room its owner is not in and a room the bot does not know; takes one they are in', async () => {
    const others = await room('Someone else’s room');
    const refused = await create(others);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(WATCH_MESSAGES.roomNotMember);
    const unknown = await create('Y2lzY29zcGFyazovL3VzL1JPT00vdW5rbm93bg');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(WATCH_MESSAGES.roomUnknown);
    // An edit to a room they are not in is refused as well.
    const mine = await room('TAM room');
    await join(mine, 'tam@demo.local');
    const created = await create(mine);
    expect(created.statusCode, created.body).toBe(201);
    const watch = created.json<Watch>();
    const edited = await tam.request({ method: 'PUT', url: `/api/watches/${watch.id}`, payload: settings(others) });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error.message).toBe(WATCH_MESSAGES.roomNotMember);
    await tam.request({ method: 'DELETE', url: `/api/watches/${watch.id}` });
  });

  it('sends to the room while its owner is in it, and not once they left it', async () => {
    const roomId = await room('Acme watch');
    const membership = await join(roomId, 'tam@demo.local');
    const watch = (await create(roomId)).json<Watch>();
    const first = await run(watch);
    expect(first).toMatchObject({ status: 'done', delivery: { status: 'sent', error: null } });
    expect(inRoom(roomId)).toHaveLength(1);
    // The owner leaves the room: the next message is not sent there, and the run says why.
    expect((await webex('DELETE', `/v1/memberships/${membership}`)).statusCode).toBe(204);
    await testApp.app.inject({
      method: 'POST',
      url: '/sandbox/te/world-changes',
      payload: { change: 'inactive-user', organizationId: customer.organization.id, aid: customer.groups[0]?.aid },
    });
    const second = await run(watch);
    expect(second).toMatchObject({
      status: 'done',
      delivery: { status: 'failed', error: WATCH_MESSAGES.roomNotMember },
    });
    expect(inRoom(roomId)).toHaveLength(1);
  });
});
