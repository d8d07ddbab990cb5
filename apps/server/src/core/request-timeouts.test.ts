import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerRequestTimeouts } from './request-timeouts.js';

describe('request time limits', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sets none on in-process calls (the embedded sandbox, app.inject): there is no connection to close', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const app = Fastify({ logger: false });
    registerRequestTimeouts(app, { requestMs: 1_000, uploadMs: 5_000 });
    // A body no parser reads (415): nothing ends it, so only the limit would.
    app.post('/refuses', async () => ({ read: true }));
    await app.ready();
    const answer = await app.inject({
      method: 'POST',
      url: '/refuses',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(64 * 1024, 1),
    });
    expect(answer.statusCode).toBe(415);
    expect(vi.getTimerCount()).toBe(0);
    // Past the limit nothing fires (a timer left here would try to close a socket that is not there).
    vi.advanceTimersByTime(10_000);
    await app.close();
  });
});
