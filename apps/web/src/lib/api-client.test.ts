import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, ApiRequestError } from './api-client';

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('gives up after its timeout with a message saying so', async () => {
    // A server that never answers: the request ends only when its signal aborts.
    vi.stubGlobal('fetch', (_path: string, init: RequestInit) => {
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'TimeoutError')));
      });
    });
    const error = await apiRequest('/api/anything', { timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).message).toBe('The server did not answer within 1 second. Try again.');
  });
});
