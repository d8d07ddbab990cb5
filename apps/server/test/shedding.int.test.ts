import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, CSRF_COOKIE, CSRF_HEADER, type ApiToken } from '@ce/contract';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './build-test-app.js';

const METRICS_TOKEN = 'a metrics token for the test';

// An instance past its bound (MAX_REQUESTS_IN_FLIGHT=4, set low) over real HTTP: it answers 503 "busy" at once,
// sheds calls without a session before a signed-in person's and the web app's files last, and still answers its
// probes; and a request whose caller went while it waited is not worked.
describe('an instance past the knee', () => {
  let testApp: TestApp;
  let origin = '';
  let port = 0;
  let cookie = '';
  let csrf = '';
  const webDir = mkdtempSync(path.join(os.tmpdir(), 'ce-shedding-web-'));

  beforeAll(async () => {
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>CE Toolkit</title>');
    writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app");');
    testApp = await createTestApp('pglite', {
      MAX_REQUESTS_IN_FLIGHT: '4',
      METRICS_TOKEN,
      WEB_DIST_DIR: webDir,
      WORKERS_ENABLED: 'false',
    });
    origin = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(origin).port);
    const primed = await fetch(`${origin}/api/app-info`);
    csrf = /ce_csrf=([^;]+)/.exec(primed.headers.getSetCookie().join(';'))?.[1] ?? '';
    const signedIn = await fetch(`${origin}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf },
      body: JSON.stringify({ email: 'tam@demo.local', password: DEMO_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookies = signedIn.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
    cookie = [`${CSRF_COOKIE}=${csrf}`, ...cookies.filter((pair) => !pair.startsWith(`${CSRF_COOKIE}=`))].join('; ');
  });
  afterAll(async () => {
    await testApp?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  /** Sends a request over its own connection; answers once the server has it (its hooks have begun). */
  async function send(head: string, body: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
    const arrived = new Promise<ServerResponse>((resolve) =>
      testApp.app.server.once('request', (_request: IncomingMessage, response: ServerResponse) => resolve(response)),
    );
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`${head}\r\nhost: 127.0.0.1\r\ncookie: ${cookie}\r\n${CSRF_HEADER}: ${csrf}\r\n\r\n${body}`);
    const response = await arrived;
    const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    return { socket, closed };
  }
  /** A signed-in person's request in flight: its body never ends. */
  const held = () =>
    send('POST /api/account/api-tokens HTTP/1.1\r\ncontent-type: application/json\r\ncontent-length: 500', '{"na');
  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${origin}${url}`, { headers });
  const busy = { error: { code: 'busy', message: BUSY_MESSAGE, requestId: expect.any(String) } };

  it('answers 503 "busy" at once past its bound, calls without a session first, and still answers its probes', async () => {
    const holding = [await held(), await held(), await held()];
    try {
      // Three in flight: past three quarters of the bound, a call without a session is turned away...
      const anonymous = await get('/api/app-info');
      expect(anonymous.status).toBe(503);
      expect(anonymous.headers.get('retry-after')).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      expect(await anonymous.json()).toEqual(busy);
      // ...a signed-in person's is still worked.
      expect((await get('/api/session', { cookie })).status).toBe(200);

      holding.push(await held());
      const signedIn = await get('/api/session', { cookie });
      expect(signedIn.status).toBe(503);
      expect(signedIn.headers.get('retry-after')).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      expect(await signedIn.json()).toEqual(busy);

      // The web app's page and files are turned away last; the probes never.
      expect((await get('/assets/app-1234.js', { cookie })).status).toBe(200);
      expect((await get('/reports', { cookie })).status).toBe(200);
      const health = await get('/healthz');
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await get('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', load: 'busy' });
      expect((await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    } finally {
      for (const { socket } of holding) socket.destroy();
      await Promise.all(holding.map(({ closed }) => closed));
    }
    // Once those requests are gone, the person is answered again.
    expect((await get('/api/session', { cookie })).status).toBe(200);
    expect(testApp.logs.some((line) => line.includes('the instance is busy'))).toBe(true);
  });

  it('does not work a request whose caller went away while it waited', async () => {
    const { grantable } = (await (await get('/api/account/api-tokens/settings', { cookie })).json()) as {
      grantable: string[];
    };
    const made = await fetch(`${origin}/api/account/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, [CSRF_HEADER]: csrf },
      body: JSON.stringify({ name: 'Kept', expiresInDays: 7, capabilities: grantable.slice(0, 1) }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: { id: string } };
    const status = async () =>
      ((await (await get('/api/account/api-tokens', { cookie })).json()) as { tokens: ApiToken[] }).tokens.find(
        (candidate) => candidate.id === token.id,
      )?.status;
    // The database held: the revocation waits for its session to be looked up, and its caller goes meanwhile.
    let release = () => undefined as void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const transaction = testApp.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      locked();
      await holding;
    });
    await isLocked;
    const revocation = await send(`DELETE /api/account/api-tokens/${token.id} HTTP/1.1`, '');
    revocation.socket.destroy();
    await revocation.closed;
    release();
    await transaction;

    // Either the server says it left the request, or (without the guard) the token is revoked: then it may not be.
    await vi.waitFor(async () =>
      expect(testApp.logs.some((line) => line.includes('not worked')) || (await status()) === 'revoked').toBe(true),
    );
    expect(await status()).toBe('active');
  });
  it('lets fewer calls in while its requests keep the loop busy with a queue it cannot see, all again once it has time', async () => {
    /** Eight keep-alive connections, as a proxy's pool: what waits for the instance queues there, not in its sockets. */
    const sendFor = async (busy: () => void) => {
      const statuses: number[] = [];
      let sending = true;
      const workers = Array.from({ length: 8 }, async () => {
        while (sending) statuses.push((await get('/api/session', { cookie })).status);
      });
      busy();
      return {
        statuses,
        stop: async () => {
          sending = false;
          await Promise.all(workers);
        },
      };
    };
    const burnFor = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };

    // A job keeps the loop busy (the embedded default's jobs share it): people are not turned away for its work.
    let burning = true;
    const burn = () => {
      burnFor(40);
      if (burning) setImmediate(burn);
    };
    const job = await sendFor(() => setImmediate(burn));
    await vi.waitFor(() => expect(job.statuses.length).toBeGreaterThan(150), { timeout: 20_000, interval: 100 });
    burning = false;
    await job.stop();
    expect(new Set(job.statuses)).toEqual(new Set([200]));

    // Requests that cost 20 ms each keep it busy: part of them are turned away, the rest answered.
    const costly = () => burnFor(20);
    testApp.app.server.on('request', costly);
    const requests = await sendFor(() => undefined);
    try {
      await vi.waitFor(() => expect(requests.statuses.filter((status) => status === 503).length).toBeGreaterThan(20), {
        timeout: 20_000,
        interval: 100,
      });
      expect(requests.statuses).toContain(200);
    } finally {
      testApp.app.server.off('request', costly);
      await requests.stop();
    }
    // With time to spare it lets every call in again.
    await vi.waitFor(
      async () => {
        // One after another: this suite's bound of 4 in flight is not what is tested here.
        const answered: number[] = [];
        for (let index = 0; index < 10; index++) answered.push((await get('/api/session', { cookie })).status);
        expect(answered).toEqual(Array.from({ length: 10 }, () => 200));
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
