import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox, sandboxPlugin, WEBEX_TEXT_LIMIT_BYTES } from '../src/index.js';

async function build(demoMode: boolean) {
  const sandbox = new Sandbox({
    webexBotToken: 'bot-token',
    salesforceClientId: 'client',
    salesforceClientSecret: 'secret',
  });
  const app = Fastify({ logger: false });
  await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode });
  await app.ready();
  return { sandbox, app };
}

function multipart(fields: Record<string, string>, files: { name: string; type: string; content: string }[]) {
  const boundary = '----sandbox-test-boundary';
  const parts = [
    ...Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    ...files.map(
      (file) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
    ),
  ];
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: 'Bearer bot-token' },
  };
}

describe('the sandbox stand-ins', () => {
  let app: FastifyInstance;
  let sandbox: Sandbox;

  beforeAll(async () => {
    ({ app, sandbox } = await build(true));
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => sandbox.reset());

  describe('Webex', () => {
    it('delivers a markdown message with one file and lists it for the recipient', async () => {
      const { payload, headers } = multipart(
        { toPersonEmail: 'tam@demo.local', markdown: '**Alerts report** is ready' },
        [
          {
            name: 'alerts.xlsx',
            type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            content: 'PK-bytes',
          },
        ],
      );
      const sent = await app.inject({ method: 'POST', url: '/sandbox/webex/v1/messages', payload, headers });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toMatchObject({
        toPersonEmail: 'tam@demo.local',
        markdown: '**Alerts report** is ready',
        files: [expect.stringContaining('/files/')],
      });

      const listed = (await app.inject({ url: '/sandbox/webex/messages?toPersonEmail=tam@demo.local' })).json();
      expect(listed.items).toHaveLength(1);
      expect(listed.items[0].file).toMatchObject({ name: 'alerts.xlsx', size: 8 });
      const file = await app.inject({ url: `/sandbox/webex/files/${listed.items[0].file.id}` });
      expect(file.body).toBe('PK-bytes');
      const pageHtml = (await app.inject({ url: '/sandbox/webex' })).body;
      expect(pageHtml).toContain('tam@demo.local');
      expect(pageHtml).toContain('alerts.xlsx');
    });

    it('refuses two files, text over the limit, a missing recipient and a wrong bot token', async () => {
      const two = multipart({ toPersonEmail: 'a@b.c', text: 'x' }, [
        { name: 'a.txt', type: 'text/plain', content: 'a' },
        { name: 'b.txt', type: 'text/plain', content: 'b' },
      ]);
      expect((await app.inject({ method: 'POST', url: '/sandbox/webex/v1/messages', ...two })).statusCode).toBe(400);
      const long = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        headers: { authorization: 'Bearer bot-token' },
        payload: { toPersonEmail: 'a@b.c', markdown: 'é'.repeat(WEBEX_TEXT_LIMIT_BYTES / 2 + 1) },
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toMatch(/7439 bytes/);
      const justFits = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        headers: { authorization: 'Bearer bot-token' },
        payload: { toPersonEmail: 'a@b.c', markdown: 'x'.repeat(WEBEX_TEXT_LIMIT_BYTES) },
      });
      expect(justFits.statusCode).toBe(200);
      const noRecipient = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        headers: { authorization: 'Bearer bot-token' },
        payload: { text: 'hi' },
      });
      expect(noRecipient.statusCode).toBe(400);
      const wrongToken = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        headers: { authorization: 'Bearer nope' },
        payload: { toPersonEmail: 'a@b.c', text: 'hi' },
      });
      expect(wrongToken.statusCode).toBe(401);
      const noToken = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        payload: { toPersonEmail: 'a@b.c', text: 'hi' },
      });
      expect(noToken.statusCode).toBe(401);
      expect(sandbox.webex.messages.map((message) => message.text ?? message.markdown)).toEqual([
        'x'.repeat(WEBEX_TEXT_LIMIT_BYTES),
      ]);
    });

    it('serves an uploaded file as an inert download, whatever type the uploader declared', async () => {
      const { payload, headers } = multipart({ toPersonEmail: 'tam@demo.local', text: 'see file' }, [
        { name: '<page>.html', type: 'text/html', content: '<script>alert(1)</script>' },
      ]);
      expect(
        (await app.inject({ method: 'POST', url: '/sandbox/webex/v1/messages', payload, headers })).statusCode,
      ).toBe(200);
      const id = sandbox.webex.messages[0]?.file?.id;
      const file = await app.inject({ url: `/sandbox/webex/files/${id}` });
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(file.headers['content-disposition']).toBe('attachment; filename="_page_.html"');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toContain("default-src 'none'");
    });

    it('keeps the most recent 1,000 messages only', async () => {
      for (let index = 0; index < 1005; index++) {
        sandbox.webex.add({ id: String(index), toPersonEmail: 'a@b.c', text: `m${index}`, created: '' });
      }
      expect(sandbox.webex.messages).toHaveLength(1000);
      expect(sandbox.webex.messages[0]?.text).toBe('m5');
      for (let index = 0; index < 1005; index++) sandbox.mail.deliver({ to: 'a@b.c', subject: 's', text: `t${index}` });
      expect(sandbox.mail.messages).toHaveLength(1000);
    });

    it('answers 429 with Retry-After while throttled', async () => {
      await app.inject({
        method: 'PUT',
        url: '/sandbox/webex/scenario',
        payload: { throttleMs: 5_000, retryAfterSeconds: 3 },
      });
      const response = await app.inject({
        method: 'POST',
        url: '/sandbox/webex/v1/messages',
        headers: { authorization: 'Bearer bot-token' },
        payload: { toPersonEmail: 'a@b.c', text: 'hi' },
      });
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('3');
      expect(sandbox.webex.messages).toHaveLength(0);
    });

    it("throttles only one person's messages when the scenario names them", async () => {
      await app.inject({
        method: 'PUT',
        url: '/sandbox/webex/scenario',
        payload: { throttleMs: 5_000, retryAfterSeconds: 3, toPersonEmail: 'slow@b.c' },
      });
      const send = (toPersonEmail: string) =>
        app.inject({
          method: 'POST',
          url: '/sandbox/webex/v1/messages',
          headers: { authorization: 'Bearer bot-token' },
          payload: { toPersonEmail, text: 'hi' },
        });
      const refused = await send('slow@b.c');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('3');
      expect((await send('a@b.c')).statusCode).toBe(200);
      expect(sandbox.webex.messages.map((message) => message.toPersonEmail)).toEqual(['a@b.c']);
    });
  });

  describe('Salesforce', () => {
    async function accessToken() {
      const response = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=client&client_secret=secret',
      });
      expect(response.statusCode).toBe(200);
      return response.json().access_token as string;
    }

    it('issues tokens only to the configured client', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=client&client_secret=wrong',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_client');
    });

    it('creates a valid task, refuses an invalid one with field errors, and needs a session', async () => {
      const token = await accessToken();
      const headers = { authorization: `Bearer ${token}` };
      const created = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/data/v60.0/sobjects/Task',
        headers,
        payload: { Subject: 'ENG-1 General', ActivityDate: '2026-11-16', Status: 'Completed', Description: '2.5 h' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ success: true, id: expect.stringMatching(/^00T/) });
      const invalid = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/data/v60.0/sobjects/Task',
        headers,
        payload: { ActivityDate: '16/11/2026' },
      });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().map((error: { errorCode: string }) => error.errorCode)).toEqual([
        'REQUIRED_FIELD_MISSING',
        'INVALID_TYPE_ON_FIELD_IN_RECORD',
      ]);
      const anonymous = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/data/v60.0/sobjects/Task',
        payload: { Subject: 'x' },
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answers the composite API record by record, or not at all with allOrNone', async () => {
      const headers = { authorization: `Bearer ${await accessToken()}` };
      const records = [
        { attributes: { type: 'Task' }, Subject: 'One' },
        { attributes: { type: 'Task' }, Subject: '' },
        { attributes: { type: 'Task' }, Subject: 'Three', Status: 'Done-ish' },
      ];
      const partial = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/data/v60.0/composite/sobjects',
        headers,
        payload: { allOrNone: false, records },
      });
      expect(partial.json().map((result: { success: boolean }) => result.success)).toEqual([true, false, false]);
      expect(sandbox.salesforce.tasks).toHaveLength(1);
      const none = await app.inject({
        method: 'POST',
        url: '/sandbox/salesforce/services/data/v60.0/composite/sobjects',
        headers,
        payload: { allOrNone: true, records },
      });
      expect(none.json().every((result: { success: boolean }) => !result.success)).toBe(true);
      expect(sandbox.salesforce.tasks).toHaveLength(1);
      expect((await app.inject({ url: '/sandbox/salesforce' })).body).toContain('One');
    });
  });

  it('keeps mail in an outbox and lists it', async () => {
    sandbox.mail.deliver({ to: 'tam@demo.local', subject: 'Your code', text: 'Code: 123456' });
    expect((await app.inject({ url: '/sandbox/mail/messages?to=TAM@demo.local' })).json().items).toHaveLength(1);
    expect((await app.inject({ url: '/sandbox/mail' })).body).toContain('Your code');
  });

  it('lists the platform tokens with what each is, and switches scenarios', async () => {
    const tokens = (await app.inject({ url: '/sandbox/te/tokens' })).json().tokens;
    expect(tokens.map((token: { kind: string }) => token.kind)).toEqual([
      'org-admin',
      'org-admin',
      'read-only',
      'revoked',
    ]);
    const scenario = await app.inject({
      method: 'PUT',
      url: '/sandbox/te/scenario',
      payload: { latencyMs: 10, errorRate: 0.5 },
    });
    expect(scenario.json()).toMatchObject({ latencyMs: 10, errorRate: 0.5, rateLimitPerMinute: 240 });
    expect(
      (await app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { latencyMs: 'slow' } })).statusCode,
    ).toBe(400);
    expect((await app.inject({ method: 'DELETE', url: '/sandbox/te/scenario' })).json()).toMatchObject({
      latencyMs: 0,
      errorRate: 0,
    });
  });

  it('answers a platform call while down with 503, and a revoked token with the OAuth-style 401', async () => {
    const revoked = sandbox.platform.world.tokens.find((token) => token.kind === 'revoked')?.token;
    const unauthorized = await app.inject({
      url: '/sandbox/te/v7/account-groups',
      headers: { authorization: `Bearer ${revoked}` },
    });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json()).toEqual({ error: 'invalid_token', error_description: 'Invalid access token' });
    await app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { down: true } });
    const admin = sandbox.platform.world.tokens.find((token) => token.kind === 'org-admin')?.token;
    const down = await app.inject({
      url: '/sandbox/te/v7/account-groups',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(down.statusCode).toBe(503);
  });
});

describe('the sandbox outside demo mode', () => {
  it('does not list the tokens, copy the organizations nor let anyone switch scenarios', async () => {
    const { app } = await build(false);
    expect((await app.inject({ url: '/sandbox/te/tokens' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/sandbox/te/organization-copies' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'PUT', url: '/sandbox/te/scenario', payload: { down: true } })).statusCode).toBe(
      404,
    );
    expect(
      (await app.inject({ method: 'PUT', url: '/sandbox/webex/scenario', payload: { throttleMs: 1000 } })).statusCode,
    ).toBe(404);
    await app.close();
  });
});
