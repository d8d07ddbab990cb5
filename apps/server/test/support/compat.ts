import { afterAll, beforeAll, expect } from 'vitest';
import type { CreatedApiToken } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from '../build-test-app.js';

/** How a caller of the original services reaches the layer: a browser's cookie session, or a script's token. */
export type Caller = 'cookie' | 'token';
export const CALLERS: Caller[] = ['cookie', 'token'];

/**
 * What the compatibility suites share: the app, a TAM signed in (cookie session, with CSRF) and a personal
 * token of theirs carrying everything the TAM's role holds, the sandbox customer, and one call helper for both.
 */
export function compatSuite() {
  let testApp: TestApp;
  let tam: TestClient;
  let secret = '';
  let customer: SandboxCustomer;
  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    const created = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: {
        name: 'Original scripts',
        expiresInDays: 7,
        capabilities: ['healthCheck', 'reporting', 'tools', 'customerToken'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    secret = created.json<CreatedApiToken>().secret;
  });
  afterAll(async () => {
    await testApp.close();
  });
  return {
    app: () => testApp,
    tam: () => tam,
    customer: () => customer,
    secret: () => secret,
    world() {
      if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
      return testApp.sandbox.platform.world;
    },
    /** One original call, as a browser (cookie and CSRF header) or as a script (Bearer token, nothing else). */
    call(caller: Caller, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) {
      const body = payload === undefined ? {} : { payload: payload as Record<string, unknown> };
      return caller === 'cookie'
        ? tam.request({ method, url, headers, ...body })
        : testApp.app.inject({ method, url, headers: { ...headers, authorization: `Bearer ${secret}` }, ...body });
    },
  };
}
