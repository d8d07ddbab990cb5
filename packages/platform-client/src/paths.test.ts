import { describe, expect, it } from 'vitest';
import { PlatformClient } from './client.js';
import { PlatformError } from './errors.js';
import type { PlatformTestType } from './schemas.js';

/** A session whose platform records the path of every call it is sent, and answers with an empty object. */
function recorded() {
  const paths: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const session = new PlatformClient({ baseUrl: 'https://api.example/v7', fetch, retryBudgetMs: 0 }).as({
    token: 'a-token-of-forty-characters-for-the-test',
  });
  return { session, paths };
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => 'sent',
    (error: unknown) => (error instanceof PlatformError ? `refused: ${error.message}` : `failed: ${String(error)}`),
  );

describe('paths sent to the platform', () => {
  it('encodes every segment taken from a caller: a slash or a dot segment never leaves its place', async () => {
    const { session, paths } = recorded();
    await session.tests.get('http-server', '../../account-groups').catch(() => undefined);
    await session.alertRules.get('a/b?c#d').catch(() => undefined);
    await session.dashboards.get('..%2F..').catch(() => undefined);
    expect(paths).toEqual([
      '/v7/tests/http-server/..%2F..%2Faccount-groups',
      '/v7/alerts/rules/a%2Fb%3Fc%23d',
      '/v7/dashboards/..%252F..',
    ]);
  });

  it('refuses, before sending anything, an id that is a dot segment and a test type outside the known list', async () => {
    const { session, paths } = recorded();
    expect(await refusal(session.tests.get('http-server', '..'))).toMatch(/^refused: /);
    expect(await refusal(session.alertRules.delete('.'))).toMatch(/^refused: /);
    expect(await refusal(session.tests.listByType('../account-groups' as PlatformTestType))).toBe(
      'refused: "../account-groups" is not a test type the platform knows.',
    );
    expect(
      await refusal(session.endpointTests.createScheduled('../../agents' as 'http-server', { testName: 'x' })),
    ).toMatch(/^refused: /);
    expect(paths).toEqual([]);
  });
});
