import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenCheck } from '@ce/contract';
import {
  ANSWER_SUITE_DATABASES,
  createTestApp,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)("the customer switcher's token check (%s)", (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  const token = (which: 'org-admin' | 'read-only' | 'revoked') =>
    testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === which)?.token ?? '';
  const check = (value: string) =>
    tam.request({ method: 'POST', url: '/api/customers/token-check', payload: { token: value } });
  const callsSince = (start: number) => (testApp.sandbox?.platform.calls ?? []).slice(start);
  const callCount = () => testApp.sandbox?.platform.calls.length ?? 0;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("says an Org Admin's token may do everything, proved by reads, and writes nothing", async () => {
    const start = callCount();
    const response = await check(token('org-admin'));
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<TokenCheck>();
    expect(answer.accountGroups.length).toBeGreaterThan(0);
    expect(answer.ability).toEqual({
      isOrgAdmin: true,
      canWrite: true,
      cannotRead: [],
      label: 'Org Admin',
      summary: 'Org Admin: reports and writing tools work.',
    });
    const calls = callsSince(start);
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
    expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining(['/account-groups', '/users/current']));
  });

  it('says a read-only token may read but not write, and what it cannot read', async () => {
    const response = await check(token('read-only'));
    expect(response.statusCode, response.body).toBe(200);
    const { ability } = response.json<TokenCheck>();
    expect(ability).toMatchObject({ isOrgAdmin: false, canWrite: false, label: 'read-only' });
    expect(ability.cannotRead).toEqual(['View users', 'View roles', 'View activity log', 'View usage and quotas']);
    expect(ability.summary).toBe(
      'read-only: reports work, writing tools will be refused. It cannot read: View users, View roles, View activity log, View usage and quotas.',
    );
  });

  it('tells a revoked token from something that is no token, in the spec’s words, with one call each', async () => {
    let start = callCount();
    const revoked = await check(token('revoked'));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toMatchObject({
      code: 'invalid_platform_token',
      message:
        "Invalid OAuth token. Please check your token and try again. The platform knows no such token any more: it was revoked or has expired. Ask the customer's Org Admin for a new one.",
    });
    expect(callsSince(start)).toHaveLength(1);

    start = callCount();
    const hello = await check('hello');
    expect(hello.statusCode).toBe(401);
    expect(hello.json().error).toMatchObject({
      code: 'invalid_platform_token',
      message:
        'Invalid OAuth token. Please check your token and try again. This is not a token of the platform: a bearer token is 34 or more letters, digits and dashes, from Account Settings > Users and Roles > Profile > User API Tokens.',
    });
    expect(callsSince(start)).toHaveLength(1);
  });

  it('is refused to a role without customer tokens', async () => {
    const other = await signedInClient(testApp.app, 'user@demo.local');
    const response = await other.request({
      method: 'POST',
      url: '/api/customers/token-check',
      payload: { token: token('org-admin') },
    });
    expect(response.statusCode).toBe(403);
  });
});
