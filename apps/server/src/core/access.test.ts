import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAccessControl, type SessionResolver } from './access.js';

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
