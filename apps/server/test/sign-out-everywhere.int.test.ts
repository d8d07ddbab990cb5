import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiToken, CreatedApiToken, SignOutResponse } from '@ce/contract';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

describe('sign out everywhere, and the personal API tokens', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const make = async (client: TestClient, name: string) => {
    const made = await client.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name, expiresInDays: 7, capabilities: ['reporting'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<CreatedApiToken>();
  };
  /** What a script using the token gets: its reports, or the refusal of a token that ended. */
  const scriptStatus = async (secret: string) =>
    (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/reports',
        headers: { authorization: `Bearer ${secret}` },
      })
    ).statusCode;

  it('without asking, the sessions end and the tokens keep working (a script is no session)', async () => {
    const laptop = await signedInClient(testApp.app, 'adoption@demo.local');
    const { secret } = await make(laptop, 'Kept script');
    const response = await laptop.request({ method: 'DELETE', url: '/api/session' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<SignOutResponse>()).toMatchObject({ endedSessions: 1, revokedApiTokens: 0 });
    expect(await scriptStatus(secret)).toBe(200);
  });

  it('asked to, it revokes every token of the user too, says how many, and records each', async () => {
    const laptop = await signedInClient(testApp.app, 'tam@demo.local');
    const phone = await signedInClient(testApp.app, 'tam@demo.local');
    const colleague = await signedInClient(testApp.app, 'proserv@demo.local');
    const nightly = await make(laptop, 'Nightly report');
    const weekly = await make(phone, 'Weekly report');
    const theirs = await make(colleague, 'Colleague script');
    expect(await scriptStatus(nightly.secret)).toBe(200);

    const response = await laptop.request({ method: 'DELETE', url: '/api/session?revokeApiTokens=true' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<SignOutResponse>()).toMatchObject({ endedSessions: 2, revokedApiTokens: 2 });

    expect(await scriptStatus(nightly.secret)).toBe(401);
    expect(await scriptStatus(weekly.secret)).toBe(401);
    expect((await phone.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    // Another user's sessions and tokens are theirs.
    expect(await scriptStatus(theirs.secret)).toBe(200);
    expect((await colleague.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);

    // Signed in again, the owner sees why they ended; the security events and the audit log name each.
    const again = await signedInClient(testApp.app, 'tam@demo.local');
    const { tokens } = (await again.request({ method: 'GET', url: '/api/account/api-tokens' })).json<{
      tokens: ApiToken[];
    }>();
    expect(
      tokens
        .filter((token) => [nightly.token.id, weekly.token.id].includes(token.id))
        .map(({ status, revokedReason }) => ({ status, revokedReason })),
    ).toEqual([
      { status: 'revoked', revokedReason: 'Revoked when its owner signed out everywhere' },
      { status: 'revoked', revokedReason: 'Revoked when its owner signed out everywhere' },
    ]);
    const events = await sql<{ detail: string }>(
      "select detail from security_events where type = 'api_token_revoked' and email = 'tam@demo.local' order by detail",
    );
    expect(events.map((event) => event.detail)).toEqual([
      `token "Nightly report" (${nightly.token.hint}): Revoked when its owner signed out everywhere`,
      `token "Weekly report" (${weekly.token.hint}): Revoked when its owner signed out everywhere`,
    ]);
    const audited = await sql<{ target: string }>(
      "select target from audit_log where action = 'api-token.revoked' and actor_email = 'tam@demo.local' order by target",
    );
    expect(audited.map((entry) => entry.target)).toEqual(['Nightly report', 'Weekly report']);
  });

  it('a token cannot sign its owner out, with or without its tokens', async () => {
    const client = await signedInClient(testApp.app, 'pmo@demo.local');
    const { secret } = await make(client, 'PMO script');
    const refused = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/session?revokeApiTokens=true',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(await scriptStatus(secret)).toBe(200);
    expect((await client.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
  });
});
