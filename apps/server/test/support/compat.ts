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
    /**
     * An organization and one of its groups for a caller: the cookie session works in the customer's
     * organization, the token in the second one of the demo world (each with its own Org Admin token).
     */
    organizationOf(caller: Caller) {
      const world = testApp.sandbox?.platform.world;
      if (!world) throw new Error('the sandbox is mounted in tests');
      const orgId =
        caller === 'cookie'
          ? customer.organization.id
          : world.organizations.find((org) => org.orgId !== customer.organization.id)?.orgId;
      const org = world.organizations.find((candidate) => candidate.orgId === orgId);
      const token = world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === orgId);
      const group = world.accountGroups.find((candidate) => candidate.orgId === orgId);
      if (!org || !token || !group) throw new Error('the demo world has two organizations with an Org Admin token');
      return {
        token: token.token,
        organization: { id: org.orgId, name: org.name },
        aid: group.aid,
        accountGroupName: group.accountGroupName,
      };
    },
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
