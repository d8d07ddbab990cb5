import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Role, SessionUser } from '@ce/contract';
import { registerAccessControl, requireCapability, type SessionResolver } from './access.js';

describe('the access check at start-up', () => {
  const app = () => {
    const server = Fastify({ logger: false });
    registerAccessControl(server, {} as SessionResolver, { secure: () => false });
    return server;
  };

  it('exempts the API document and its viewer, and only them', () => {
    const server = app();
    expect(() => server.get('/api/docs', async () => 'viewer')).not.toThrow();
    expect(() => server.get('/api/docs/json', async () => ({}))).not.toThrow();
    for (const url of ['/api/docsearch', '/api/docs-export', '/api/documents'])
      expect(() => server.get(url, async () => 'unguarded'), url).toThrow(
        `Route GET ${url} has no operationId listed in OPERATION_ACCESS`,
      );
  });
});

describe('a second capability a service checks', () => {
  const user = (role: Role, carries?: string[]): SessionUser => ({
    id: 'u1',
    email: 'someone@example.com',
    name: null,
    locale: role,
    role,
    ...(carries ? { apiToken: { id: 't1', name: 'Script', capabilities: carries } } : {}),
  });
  const refusal = (call: () => void) => {
    try {
      call();
      return null;
    } catch (error) {
      return [(error as { statusCode: number }).statusCode, (error as Error).message];
    }
  };

  it("names the token's missing capability by its Settings name when the role holds it, and the role otherwise", () => {
    expect(refusal(() => requireCapability(user('TAM', ['healthCheck']), 'reporting', 'Your role cannot.'))).toEqual([
      403,
      'This token does not carry Reports.',
    ]);
    expect(
      refusal(() => requireCapability(user('Engineering', ['healthCheck']), 'reporting', 'Your role cannot.')),
    ).toEqual([403, 'Your role cannot.']);
    expect(refusal(() => requireCapability(user('Engineering'), 'reporting'))).toEqual([
      403,
      'You do not have permission to do this',
    ]);
    expect(refusal(() => requireCapability(user('TAM', ['reporting']), 'reporting'))).toBeNull();
    expect(refusal(() => requireCapability(user('TAM'), 'reporting'))).toBeNull();
  });
});
