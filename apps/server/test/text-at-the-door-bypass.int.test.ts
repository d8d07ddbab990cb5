import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGES, type ApiError } from '@ce/contract';
import { createTestApp, DATABASES, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

/** What marks this file's odd texts: no log line may carry it. */
const MARKER = 'bypass-marker';
/** Raw JSON text: the escape a caller's request carries. */
const NUL = String.raw`\u0000`;
/** This file's port (helper 5's range): a real socket, where Node's own HTTP parser reads the headers. */
const PORT = 3243;

/**
 * Ways round the door of decision 0039, as a hostile caller would try them: a path spelled with percent escapes
 * (routed to the API all the same), other content types, a NUL at the end of the largest body taken, a NUL in a
 * header a session keeps. Each is refused in words (or never reaches a handler); none is a 500, none stores a thing
 * and none logs the text.
 */
describe.each(DATABASES)('text at the door, attacked (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;

  const refusal = (response: { statusCode: number; json: () => unknown }) => {
    const { error } = response.json() as ApiError;
    return { status: response.statusCode, message: error.message };
  };
  const tokenNames = async () =>
    (await tam.request({ method: 'GET', url: '/api/account/api-tokens' }))
      .json<{ tokens: { name: string }[] }>()
      .tokens.map((token) => token.name);
  const tokenBody = (name: string) => `{"name":"${name}","expiresInDays":1,"capabilities":["tools"]}`;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  }, 120_000);
  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a NUL sent to an API path spelled with percent escapes, which is routed to the API all the same', async () => {
    // `/%61pi/` is `/api/` once decoded: the router takes it there, so the door must too.
    const search = await tam.request({ method: 'GET', url: `/%61pi/community-dashboards?search=${MARKER}%00` });
    expect(refusal(search)).toEqual({ status: 400, message: UNSTORABLE_TEXT_MESSAGES.nul('search') });
    const created = await tam.request({
      method: 'POST',
      url: '/%61pi/account/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: tokenBody(`${MARKER}${NUL}`),
    });
    expect(refusal(created)).toEqual({ status: 400, message: UNSTORABLE_TEXT_MESSAGES.nul('name') });
    const routed = await tam.request({
      method: 'POST',
      url: '/ap%69/account/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: tokenBody(`${MARKER}-kept`),
    });
    // The same spelling with storable text is taken: the escape is routed, only the NUL is refused.
    expect(routed.statusCode, routed.body).toBe(201);
    expect(await tokenNames()).toEqual([`${MARKER}-kept`]);
  });

  it('takes JSON only as JSON, whatever its content type says, and refuses a NUL in a body read as text', async () => {
    const send = (contentType: string, payload: string) =>
      tam.request({
        method: 'POST',
        url: '/api/account/api-tokens',
        headers: { 'content-type': contentType },
        payload,
      });
    for (const contentType of ['application/json; charset=utf-8', 'APPLICATION/JSON'])
      expect(refusal(await send(contentType, tokenBody(`${MARKER}${NUL}`))), contentType).toEqual({
        status: 400,
        message: UNSTORABLE_TEXT_MESSAGES.nul('name'),
      });
    // Another media type is not parsed at all: nothing reaches a handler.
    for (const contentType of ['application/vnd.api+json', 'application/x-www-form-urlencoded'])
      expect((await send(contentType, tokenBody(`${MARKER}${NUL}`))).statusCode, contentType).toBe(415);
    // Plain text is parsed as a string: one holding a NUL is refused as the body.
    expect(refusal(await send('text/plain', `${MARKER}\u0000`))).toEqual({
      status: 400,
      message: UNSTORABLE_TEXT_MESSAGES.nul('body'),
    });
    expect(await tokenNames()).not.toContain(expect.stringContaining('\u0000'));
  });

  it('refuses a NUL at the very end of the largest body taken, and answers the next request', async () => {
    // Close to the 1 MiB body limit: a quarter of a million strings, the last one holding the NUL.
    const strings = Array.from({ length: 250_000 }, (_, index) => `"${index % 10}"`);
    const payload = `{"name":"${MARKER}","expiresInDays":1,"capabilities":["tools"],"extra":[${strings.join(',')},"${NUL}"]}`;
    expect(payload.length).toBeGreaterThan(900_000);
    expect(payload.length).toBeLessThan(1024 * 1024);
    const response = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(refusal(response)).toEqual({ status: 400, message: UNSTORABLE_TEXT_MESSAGES.nul('extra.250000') });
    expect((await tam.request({ method: 'GET', url: '/api/account/api-tokens' })).statusCode).toBe(200);
  });

  it('never lets a NUL in a header reach the session it would be kept with (Node refuses the request)', async () => {
    const address = await testApp.app.listen({ port: PORT, host: '127.0.0.1' });
    const { port } = new URL(address);
    const body = JSON.stringify({ email: 'tam@demo.local', password: 'demo-password' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.end(
        `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${MARKER}\u0000agent\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        'latin1',
      );
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const sessions = await testApp.database.sql.executeSql(
      "select count(*)::int as n from sessions where user_agent like '%' || $1 || '%'",
      [MARKER],
    );
    expect(sessions.rows).toEqual([{ n: 0 }]);
  });

  it('logs none of the text refused, and no error', () => {
    expect(testApp.logs.filter((line) => line.includes(MARKER) && line.includes('\\u0000'))).toEqual([]);
    expect(testApp.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
