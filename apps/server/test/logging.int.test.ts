import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '@ce/contract';
import { createTestApp, DEMO_PASSWORD, TestClient, type TestApp } from './build-test-app.js';

describe('logs of a sign-in and sign-out', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('never contain the password, the session id or the anti-forgery token, and carry a request id', async () => {
    const client = new TestClient(testApp.app);
    const failed = await client.signIn('tam@demo.local', 'Wrong-Password-123!');
    expect(failed.statusCode).toBe(401);
    const signedIn = await client.signIn('tam@demo.local');
    expect(signedIn.statusCode).toBe(200);
    const sessionId = client.sessionId ?? '';
    const csrf = client.cookies[CSRF_COOKIE] ?? '';
    await client.request({ method: 'GET', url: '/api/session' });
    await client.request({
      method: 'GET',
      url: '/api/dashboard/metrics',
      headers: { authorization: 'Bearer customer-token-abcdefghijklmnop' },
    });
    expect((await client.request({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(200);

    const requestLines = testApp.logs.filter((line) => line.includes('"req"') || line.includes('"res"'));
    expect(requestLines.length).toBeGreaterThan(8);
    const all = testApp.logs.join('\n');
    for (const secret of [DEMO_PASSWORD, 'Wrong-Password-123!', sessionId, csrf, 'customer-token-abcdefghijklmnop']) {
      expect(secret.length).toBeGreaterThan(8);
      expect(all).not.toContain(secret);
    }
    for (const line of requestLines) expect(JSON.parse(line)).toHaveProperty('reqId');
  });
});
