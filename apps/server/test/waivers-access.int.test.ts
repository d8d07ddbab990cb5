import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIVER_MESSAGES, type Waiver } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

/**
 * Waivers are tied to their organization: made, read and ended only by the owner of a watch over it, a
 * caller whose request carries a token the platform names that organization for, or a Super User; at most
 * WAIVERS_PER_ORGANIZATION_MAX in force per organization.
 */
describe('who may see, make and end a customer’s waivers', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let engineering: TestClient;
  let superUser: TestClient;
  let acme: SandboxCustomer;
  let globexToken: string;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WAIVERS_PER_ORGANIZATION_MAX: '3' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    acme = await sandboxCustomer(testApp, tam);
    const world = testApp.sandbox?.platform.world;
    const globex = world?.organizations.find((organization) => organization.orgId !== acme.organization.id);
    globexToken =
      world?.tokens.find((token) => token.kind === 'org-admin' && token.orgId === globex?.orgId)?.token ?? '';
    if (!globexToken) throw new Error('the demo world has a second organization');
    // The TAM owns a watch over Acme; engineering@ owns none and has used no token of Acme.
    const watch = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: {
        token: acme.token,
        organization: acme.organization,
        consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
        accountGroups: acme.groups.slice(0, 1),
        runs: 'health',
        schedule: { cadence: 'weekly', weekday: 3, time: '03:00', timeZone: 'UTC' },
        channel: { kind: 'owner' },
        speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
      },
    });
    expect(watch.statusCode, watch.body).toBe(201);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const waiver = (itemKey: string, extra: Record<string, unknown> = {}) => ({
    organizationId: acme.organization.id,
    checkId: 'inactive-users',
    itemKey,
    itemName: `User ${itemKey}`,
    reason: 'Service account of the customer, kept on purpose',
    days: 365,
    ...extra,
  });
  const listAs = (client: TestClient, token?: string) =>
    client.request({
      method: 'POST',
      url: '/api/watch-waivers/list',
      payload: { organizationId: acme.organization.id, ...(token ? { token } : {}) },
    });

  it('refuses someone tied to no watch and carrying no token of the organization, in words', async () => {
    const made = await engineering.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver('user:1') });
    expect(made.statusCode).toBe(403);
    expect(made.json().error.message).toBe(WAIVER_MESSAGES.notTied);
    const read = await engineering.request({ url: `/api/watch-waivers?organizationId=${acme.organization.id}` });
    expect(read.statusCode).toBe(403);
    expect(read.json().error.message).toBe(WAIVER_MESSAGES.notTied);
    expect((await listAs(engineering)).statusCode).toBe(403);
    // A token of another organization ties the caller to that one, not to Acme.
    for (const answer of [
      await listAs(engineering, globexToken),
      await engineering.request({
        method: 'POST',
        url: '/api/watch-waivers',
        payload: waiver('user:1', { token: globexToken }),
      }),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().error.message).toBe(WAIVER_MESSAGES.tokenElsewhere);
    }
  });

  it("lets the watch's owner, a caller with the organization's token and a Super User in", async () => {
    const byOwner = await tam.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver('user:1') });
    expect(byOwner.statusCode, byOwner.body).toBe(201);
    const withToken = await engineering.request({
      method: 'POST',
      url: '/api/watch-waivers',
      payload: waiver('user:2', { token: acme.token }),
    });
    expect(withToken.statusCode, withToken.body).toBe(201);
    const listed = await listAs(engineering, acme.token);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ waivers: Waiver[] }>().waivers.map((each) => each.createdBy)).toEqual([
      'engineering@demo.local',
      'tam@demo.local',
    ]);
    const bySuperUser = await superUser.request({ url: `/api/watch-waivers?organizationId=${acme.organization.id}` });
    expect(bySuperUser.json<{ waivers: Waiver[] }>().waivers).toHaveLength(2);
    // The token is used, never answered back nor kept.
    expect(listed.body).not.toContain(acme.token);
    const stored = await testApp.database.sql.executeSql('select * from watch_waivers', []);
    expect(JSON.stringify(stored.rows)).not.toContain(acme.token);
  });

  it('ends a waiver only for its author or someone tied to the organization', async () => {
    const [waived] = (await listAs(tam)).json<{ waivers: Waiver[] }>().waivers;
    if (!waived) throw new Error('a waiver is in force');
    const proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    const refused = await proserv.request({ method: 'DELETE', url: `/api/watch-waivers/${waived.id}` });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.message).toBe(WAIVER_MESSAGES.notTied);
    const elsewhere = await proserv.request({
      method: 'DELETE',
      url: `/api/watch-waivers/${waived.id}`,
      payload: { token: globexToken },
    });
    expect(elsewhere.statusCode).toBe(403);
    const ended = await proserv.request({
      method: 'DELETE',
      url: `/api/watch-waivers/${waived.id}`,
      payload: { token: acme.token },
    });
    expect(ended.statusCode, ended.body).toBe(204);
  });

  it('refuses a waiver past the cap per organization, in words, counting only those in force', async () => {
    const inForce = (await listAs(tam)).json<{ waivers: Waiver[] }>().waivers.length;
    for (let index = inForce; index < 3; index += 1) {
      const made = await tam.request({
        method: 'POST',
        url: '/api/watch-waivers',
        payload: waiver(`user:${10 + index}`),
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    const past = await tam.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver('user:99') });
    expect(past.statusCode).toBe(409);
    expect(past.json().error.message).toBe(
      'This customer has 3 waivers in force, the most allowed: end one before waiving another finding.',
    );
    // Two at once cannot both pass the cap: one waiver ended, two asked together, one made.
    const [first] = (await listAs(tam)).json<{ waivers: Waiver[] }>().waivers;
    await tam.request({ method: 'DELETE', url: `/api/watch-waivers/${first?.id ?? ''}` });
    const together = await Promise.all(
      ['user:200', 'user:201'].map((key) =>
        tam.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver(key) }),
      ),
    );
    expect(together.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    // Expired waivers are not counted: another organization is not either.
    await testApp.database.sql.executeSql("update watch_waivers set expires_at = now() - interval '1 minute'", []);
    const again = await tam.request({ method: 'POST', url: '/api/watch-waivers', payload: waiver('user:99') });
    expect(again.statusCode, again.body).toBe(201);
  });
});
