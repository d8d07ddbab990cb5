import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiToken, CreatedApiToken, ReportRequest } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe('personal API tokens', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let admin: TestClient;
  let proserv: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { API_TOKEN_MAX_DAYS: '30' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    admin = await signedInClient(testApp.app, 'superuser@demo.local');
    proserv = await signedInClient(testApp.app, 'proserv@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const create = async (client: TestClient, body: Record<string, unknown>) => {
    const response = await client.request({ method: 'POST', url: '/api/account/api-tokens', payload: body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedApiToken>();
  };
  /** A script's call: the token in the header, no cookie, no anti-forgery header. */
  const script = (secret: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${secret}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];

  it('is shown once, kept as a hash, and acts as its user within its capabilities, without CSRF', async () => {
    const settings = await tam.request({ method: 'GET', url: '/api/account/api-tokens/settings' });
    expect(settings.json()).toEqual({
      maxDays: 30,
      grantable: ['healthCheck', 'reporting', 'tools', 'support', 'customerToken'],
    });
    const { token, secret } = await create(tam, { name: 'Nightly script', expiresInDays: 30, capabilities: ['tools'] });
    expect(secret).toMatch(/^cet_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: 'Nightly script',
      capabilities: ['tools'],
      status: 'active',
      lastUsedAt: null,
    });
    const stored = JSON.stringify(await sql('select * from api_tokens'));
    expect(stored).not.toContain(secret);

    const backups = await script(secret, 'GET', '/api/backups');
    expect(backups.statusCode, backups.body).toBe(200);
    // A state change with no cookie and no anti-forgery header.
    const migration = await script(secret, 'POST', '/api/alerts-migration/plan', {});
    expect(migration.statusCode).toBe(400);
    const listed = (await tam.request({ method: 'GET', url: '/api/account/api-tokens' })).json<{
      tokens: ApiToken[];
    }>();
    expect(listed.tokens).toEqual([expect.objectContaining({ id: token.id, lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Never in a log line, though every request above was logged.
    expect(testApp.logs.join('\n')).not.toContain(secret);
  });

  it('refuses what the token does not carry (403), what only a signed-in owner may do, and more than the role holds', async () => {
    const { secret } = await create(tam, { name: 'Reports only', expiresInDays: 7, capabilities: ['reporting'] });
    const refused = await script(secret, 'GET', '/api/backups');
    expect(refused.statusCode).toBe(403);
    // The role holds Tools, the token does not: the refusal names the token's missing capability as Settings does.
    expect(refused.json().error.message).toBe('This token does not carry Tools.');
    // The operation's capability is carried, a second one the service checks is not: refused too.
    const healthOnly = await create(tam, { name: 'Health only', expiresInDays: 7, capabilities: ['healthCheck'] });
    const report = await script(healthOnly.secret, 'POST', '/api/reports', {
      kind: 'alerts-config',
      token: 'a'.repeat(40),
      organization: { id: '1', name: 'Acme' },
      accountGroups: [{ aid: '1', accountGroupName: 'Acme' }],
    });
    expect(report.statusCode, report.body).toBe(403);
    expect(report.json().error.message).toBe('This token does not carry Reports.');
    const minting = await script(secret, 'POST', '/api/account/api-tokens', {
      name: 'Longer',
      expiresInDays: 30,
      capabilities: ['reporting'],
    });
    expect(minting.statusCode).toBe(403);
    expect(minting.json().error.message).toBe(
      'Sign in to do this: personal API tokens cannot manage users, sessions, passwords or tokens.',
    );
    const beyond = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Admin', expiresInDays: 7, capabilities: ['ahcIe'] },
    });
    expect([beyond.statusCode, beyond.json().error.message]).toEqual([403, 'Your role does not hold AHC-IE report.']);
    const tooLong = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Forever', expiresInDays: 31, capabilities: ['tools'] },
    });
    expect([tooLong.statusCode, tooLong.json().error.message]).toEqual([400, 'A token lives at most 30 days.']);
  });

  it('refuses an expired, a revoked, an unknown and a malformed token with 401, and says so in the security events', async () => {
    const expired = await create(tam, { name: 'Expired one', expiresInDays: 1, capabilities: ['tools'] });
    await sql("update api_tokens set expires_at = now() - interval '1 minute' where id = $1", [expired.token.id]);
    const revoked = await create(tam, { name: 'Revoked one', expiresInDays: 1, capabilities: ['tools'] });
    const revoke = await tam.request({ method: 'DELETE', url: `/api/account/api-tokens/${revoked.token.id}` });
    expect(revoke.json<ApiToken>()).toMatchObject({ status: 'revoked', revokedReason: 'Revoked by its owner' });
    for (const secret of [expired.secret, revoked.secret, 'cet_not-a-token', '']) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/api/backups',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(response.statusCode, secret).toBe(401);
      expect(response.json().error.message).toBe('This API token is not valid: it is unknown, expired or revoked.');
    }
    const events = await sql<{ type: string; detail: string }>(
      "select type, detail from security_events where type like 'api_token%' order by id",
    );
    expect(events.map((event) => event.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^token "Expired one" \(cet_.{4}…\): expired$/),
        expect.stringMatching(/^token "Revoked one" \(cet_.{4}…\): revoked$/),
        'an unknown token',
      ]),
    );
    expect(JSON.stringify(events)).not.toContain(expired.secret);
  });

  it("names the token in the audit log, and ends with its owner's deactivation or a role change that takes a capability", async () => {
    const engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    const { token, secret } = await create(engineering, {
      name: 'Health checks',
      expiresInDays: 7,
      capabilities: ['healthCheck'],
    });
    const users = (await admin.request({ method: 'GET', url: '/api/users' })).json<{
      users: { id: string; email: string }[];
    }>().users;
    const engineer = users.find((user) => user.email === 'engineering@demo.local');
    // Support does not hold healthCheck: the token ends with the change.
    await admin.request({ method: 'PATCH', url: `/api/users/${engineer?.id}`, payload: { role: 'Support' } });
    expect((await script(secret, 'GET', '/api/reports')).statusCode).toBe(401);
    const all = (await admin.request({ method: 'GET', url: '/api/api-tokens' })).json<{ tokens: ApiToken[] }>();
    expect(all.tokens.find((each) => each.id === token.id)).toMatchObject({
      status: 'revoked',
      revokedReason: "Its owner's role no longer holds healthCheck",
      owner: { email: 'engineering@demo.local' },
    });

    const writer = await create(admin, { name: 'Feedback script', expiresInDays: 7, capabilities: ['tools'] });
    const sent = await script(writer.secret, 'POST', '/api/feedback', { text: 'Sent by a script' });
    expect(sent.statusCode, sent.body).toBe(200);
    const audit = (await admin.request({ method: 'GET', url: '/api/audit-log' })).json<{
      entries: { action: string; actorEmail: string; detail: Record<string, unknown> }[];
    }>().entries;
    expect(audit.find((entry) => entry.action === 'feedback.sent')).toMatchObject({
      actorEmail: 'superuser@demo.local',
      detail: { apiToken: 'Feedback script' },
    });
    const tam2 = await create(tam, { name: 'Until disabled', expiresInDays: 7, capabilities: ['tools'] });
    const tamId = users.find((user) => user.email === 'tam@demo.local')?.id;
    await admin.request({ method: 'PATCH', url: `/api/users/${tamId}`, payload: { disabled: true } });
    expect((await script(tam2.secret, 'GET', '/api/backups')).statusCode).toBe(401);
    const afterDisable = (await admin.request({ method: 'GET', url: '/api/api-tokens' })).json<{
      tokens: ApiToken[];
    }>();
    expect(afterDisable.tokens.find((each) => each.id === tam2.token.id)?.revokedReason).toBe('Its owner was disabled');
  });

  it("lets a Super User revoke anyone's token, and nobody else", async () => {
    const { token, secret } = await create(proserv, {
      name: 'ProServ script',
      expiresInDays: 7,
      capabilities: ['tools'],
    });
    const support = await signedInClient(testApp.app, 'support@demo.local');
    const notTheirs = await support.request({ method: 'DELETE', url: `/api/account/api-tokens/${token.id}` });
    expect(notTheirs.statusCode).toBe(404);
    expect((await support.request({ method: 'GET', url: '/api/api-tokens' })).statusCode).toBe(403);
    const byAdmin = await admin.request({ method: 'DELETE', url: `/api/account/api-tokens/${token.id}` });
    expect(byAdmin.json<ApiToken>()).toMatchObject({
      status: 'revoked',
      revokedReason: 'Revoked by superuser@demo.local',
    });
    expect((await script(secret, 'GET', '/api/backups')).statusCode).toBe(401);
  });

  it('never manages users: a token cannot carry it, and one that did is refused every user operation without a temporary password', async () => {
    const offered = (await admin.request({ method: 'GET', url: '/api/account/api-tokens/settings' })).json<{
      grantable: string[];
    }>().grantable;
    expect(offered).not.toContain('manageUsers');
    const asked = await admin.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Account admin', expiresInDays: 7, capabilities: ['manageUsers'] },
    });
    expect(asked.statusCode, asked.body).toBe(400);
    expect(asked.json().error.message).toBe(
      'A personal API token cannot carry User management: only a signed-in session may.',
    );

    // A token made to carry it before (its row says so) is refused all the same.
    const { token, secret } = await create(admin, {
      name: 'Old admin script',
      expiresInDays: 7,
      capabilities: ['tools'],
    });
    await sql('update api_tokens set capabilities = $1::jsonb where id = $2', [
      JSON.stringify(['tools', 'manageUsers']),
      token.id,
    ]);
    const sessionOnly = 'Sign in to do this: personal API tokens cannot manage users, sessions, passwords or tokens.';
    const invited = await script(secret, 'POST', '/api/users', { email: 'minted@demo.local', role: 'Super User' });
    expect([invited.statusCode, invited.json().error.message]).toEqual([403, sessionOnly]);
    expect(invited.body).not.toContain('temporaryPassword');
    const accounts = (await admin.request({ method: 'GET', url: '/api/users' })).json<{
      users: { id: string; email: string }[];
    }>().users;
    expect(accounts.map((account) => account.email)).not.toContain('minted@demo.local');
    const someone = accounts.find((account) => account.email === 'pmo@demo.local');
    const refusals = [
      await script(secret, 'GET', '/api/users'),
      await script(secret, 'PATCH', `/api/users/${someone?.id}`, { role: 'Super User' }),
      await script(secret, 'GET', '/api/audit-log'),
      await script(secret, 'GET', '/api/api-tokens'),
      await script(secret, 'DELETE', `/api/account/api-tokens/${token.id}`),
    ];
    expect(refusals.map((refusal) => [refusal.statusCode, refusal.json().error.message])).toEqual(
      refusals.map(() => [403, sessionOnly]),
    );
    expect(
      (await admin.request({ method: 'GET', url: '/api/users' })).json<{ users: { email: string; role: string }[] }>()
        .users,
    ).toContainEqual(expect.objectContaining({ email: 'pmo@demo.local', role: 'PMO' }));
    // What it lists shows what its row holds; the tools it carries still work.
    const listed = (await admin.request({ method: 'GET', url: '/api/account/api-tokens' })).json<{
      tokens: ApiToken[];
    }>();
    expect(listed.tokens.find((each) => each.id === token.id)?.capabilities).toEqual(['tools', 'manageUsers']);
    expect((await script(secret, 'GET', '/api/backups')).statusCode).toBe(200);
  });

  it("reads a tool's results only with the capability Settings names for it: reports by kind, here and through te-health", async () => {
    const customer = await sandboxCustomer(testApp, proserv);
    const request = async (kind: string) => {
      const response = await proserv.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind,
          token: customer.token,
          organization: customer.organization,
          accountGroups: customer.groups.slice(0, 1),
          options: {},
        },
      });
      expect(response.statusCode, response.body).toBe(202);
      return untilFinished(() =>
        proserv
          .request({ method: 'GET', url: `/api/reports/${response.json<ReportRequest>().id}` })
          .then((answer) => answer.json<ReportRequest>()),
      );
    };
    const alerts = await request('alerts-config');
    const health = await request('ahc-v7');
    const file = alerts.artifacts[0];
    if (!file) throw new Error('the alerts report has a file');
    const reads = (secret: string) => ({
      list: () => script(secret, 'GET', '/api/reports'),
      one: () => script(secret, 'GET', `/api/reports/${alerts.id}`),
      file: () => script(secret, 'GET', `/api/reports/${alerts.id}/artifacts/${file.id}`),
      original: () => script(secret, 'GET', `/compat/reports/te-health/${alerts.id}`),
    });

    const healthOnly = reads(
      (await create(proserv, { name: 'AHC', expiresInDays: 7, capabilities: ['healthCheck'] })).secret,
    );
    const listed = await healthOnly.list();
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ reports: ReportRequest[] }>().reports.map((report) => report.id)).toEqual([health.id]);
    for (const refused of [await healthOnly.one(), await healthOnly.file(), await healthOnly.original()])
      expect([refused.statusCode, refused.json().error.message]).toEqual([403, 'This token does not carry Reports.']);

    const groupsOnly = reads(
      (await create(proserv, { name: 'Groups', expiresInDays: 7, capabilities: ['customerToken'] })).secret,
    );
    const none = await groupsOnly.list();
    expect([none.statusCode, none.json().error.message]).toEqual([
      403,
      'This token does not carry Health checks, Reports or Tools.',
    ]);

    const reporting = reads(
      (await create(proserv, { name: 'Config', expiresInDays: 7, capabilities: ['reporting'] })).secret,
    );
    expect((await reporting.list()).json<{ reports: ReportRequest[] }>().reports.map((report) => report.id)).toEqual([
      alerts.id,
    ]);
    const download = await reporting.file();
    expect([download.statusCode, download.rawPayload.length]).toEqual([200, file.size]);
    expect((await reporting.original()).json<ReportRequest>().id).toBe(alerts.id);
  });

  it('names what the token does not carry when the role holds it, and the role when it does not', async () => {
    const customer = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token;
    const writeTags = async (secret: string) => {
      const operations = (await script(secret, 'GET', '/api/explorer/operations')).json<{
        operations: { id: string; method: string; path: string }[];
      }>().operations;
      const id = operations.find((operation) => operation.method === 'POST' && operation.path === '/tags')?.id;
      const body = { key: 'script', value: 'written', objectType: 'test', color: '#1f77b4' };
      return script(secret, 'POST', '/api/explorer/call', { token: customer, operationId: id, body, confirm: true });
    };
    const superUsers = await create(admin, { name: 'Explorer reads', expiresInDays: 7, capabilities: ['tools'] });
    const refused = await writeTags(superUsers.secret);
    expect([refused.statusCode, refused.json().error.message]).toEqual([
      403,
      'This token does not carry API explorer writes.',
    ]);
    const proservs = await create(proserv, { name: 'Explorer reads', expiresInDays: 7, capabilities: ['tools'] });
    const byRole = await writeTags(proservs.secret);
    expect([byRole.statusCode, byRole.json().error.message]).toEqual([
      403,
      'Your role may read through the API explorer, not write',
    ]);
  });
});
