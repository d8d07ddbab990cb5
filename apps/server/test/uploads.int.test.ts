import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, weekStarts } from '@ce/contract';
import { createTestApp, multipartBody, signedInClient, type TestApp, type TestClient } from './build-test-app.js';
import { knownFrames, pcapFile } from './support/capture-builder.js';

/** Bytes each route would start reading as its kind of file, so a cut is met in the middle of the file. */
const capture = () => {
  const frames = knownFrames();
  return pcapFile(Array.from({ length: 40 }, () => frames).flat());
};

/** Every route that takes an upload, with a form it would otherwise accept. */
const UPLOADS: { url: string; fields: Record<string, string>; file: string; bytes?: () => Buffer }[] = [
  { url: '/api/tracker/parse', fields: { selectedDate: weekStarts().at(-1) ?? '' }, file: 'file' },
  { url: '/api/pcap', fields: {}, file: 'file', bytes: capture },
  {
    url: '/api/community-dashboards',
    fields: { token: 'x', organizationId: '1', aid: '1', dashboardId: 'd', description: 'A description' },
    file: 'screenshot1',
  },
];

describe('malformed upload requests', () => {
  let testApp: TestApp;
  let tam: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'superuser@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const errorOf = (body: string) => JSON.parse(body) as { error: { code: string; message: string } };

  it.each(UPLOADS)('$url answers 400 with a message for a multipart request without a boundary', async (route) => {
    const { payload } = await multipartBody(route.fields, {
      [route.file]: { bytes: Buffer.from('hello'), name: 'x.bin' },
    });
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload,
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body).error.message).toMatch(/multipart|form/i);
  });

  it.each(UPLOADS)('$url answers 400 with a message for a body cut before its end', async (route) => {
    const { payload, headers } = await multipartBody(route.fields, {
      [route.file]: { bytes: route.bytes?.() ?? Buffer.alloc(64 * 1024, 7), name: 'x.bin' },
    });
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload: payload.subarray(0, payload.length - 2_000),
      headers,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body).error.message).toBe(
      'The upload was cut short or is not a well-formed multipart form: send the file again.',
    );
  });

  it.each(UPLOADS)('$url answers 400 for a boundary that never appears in the body', async (route) => {
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload: Buffer.from('no parts here at all'),
      headers: { 'content-type': 'multipart/form-data; boundary=----nothing' },
    });
    expect(response.statusCode, response.body).toBe(400);
  });
});

describe('requests that arrive a few bytes at a time', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { REQUEST_TIMEOUT_MS: '1500', UPLOAD_TIMEOUT_MS: '4000' });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    port = (testApp.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** Sends the head of a request, then one byte of its body every `everyMs`; answers what came back and when. */
  const trickle = (path: string, contentType: string, everyMs: number, headers = '') =>
    new Promise<{ closedAfterMs: number; answer: string }>((resolve) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      const timer = setInterval(() => socket.write('a'), everyMs);
      socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: performance.now() - started, answer });
      });
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${contentType}\r\ncontent-length: 100000\r\n${headers}\r\n`,
      );
    });

  it('closes an anonymous sign-in whose body trickles in, within the request time limit', async () => {
    // With the anti-forgery cookie and header, as the sign-in page sends them: the body is what is awaited.
    const primed = await fetch(`http://127.0.0.1:${port}/api/app-info`);
    const csrf = /(?:^|, )([^=]+)=([^;]+)/.exec(primed.headers.get('set-cookie') ?? '');
    expect(csrf?.[1]).toBe(CSRF_COOKIE);
    const headers = `cookie: ${CSRF_COOKIE}=${csrf?.[2]}\r\n${CSRF_HEADER}: ${csrf?.[2]}\r\n`;
    const { closedAfterMs, answer } = await trickle('/api/session', 'application/json', 200, headers);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1400);
    expect(closedAfterMs).toBeLessThan(4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('The request took too long to arrive. Send it again.');
  });

  it('gives an upload route the longer upload limit, and closes it there', async () => {
    const { closedAfterMs, answer } = await trickle('/api/pcap', 'multipart/form-data; boundary=x', 200);
    expect(closedAfterMs).toBeGreaterThanOrEqual(3800);
    expect(closedAfterMs).toBeLessThan(8000);
    // Not signed in: refused before any body is read, so the connection ends with that answer instead.
    expect(answer).toMatch(/^HTTP\/1\.1 (401|403|408)/);
  });
});
