import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiBlob, apiRequest, ApiRequestError } from './api-client';
import { budgetWaits } from './budget-waits';

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

  it('names a request that changes something, tells its wait for a budget, and ends it on Cancel', async () => {
    const sent: { path: string; requestId: string | undefined }[] = [];
    vi.stubGlobal('fetch', (path: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      sent.push({ path, requestId: headers['x-request-id'] });
      if (path === '/api/app-info') return Promise.resolve(new Response('{}', { status: 200 }));
      if (path.startsWith('/api/budget-waits/'))
        return Promise.resolve(
          new Response(
            JSON.stringify({ waiting: true, organizationName: 'Acme Corporation', seconds: 9, reading: null }),
            {
              status: 200,
            },
          ),
        );
      // The checked request waits at the server until it is cancelled.
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    });
    const waiting = apiRequest('/api/account-groups', { method: 'POST', body: { token: 'x' } }).catch(
      (caught: unknown) => caught,
    );
    await vi.waitFor(() => expect(budgetWaits.getSnapshot()).toHaveLength(1), { timeout: 3_000 });
    const [wait] = budgetWaits.getSnapshot();
    expect(wait?.line).toBe("Waiting for Acme Corporation's API budget: about 9 s");
    const checked = sent.find((call) => call.path === '/api/account-groups');
    expect(checked?.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.some((call) => call.path === `/api/budget-waits/${checked?.requestId}`)).toBe(true);
    wait?.cancel();
    const error = await waiting;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'cancelled', message: 'Cancelled.' });
    expect(budgetWaits.getSnapshot()).toEqual([]);
  });
});

describe('apiBlob', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('answers the bytes of a file', async () => {
    vi.stubGlobal('fetch', async () => new Response(new Uint8Array([80, 75, 3, 4]), { status: 200 }));
    const blob = await apiBlob('/api/tracker/template');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  });

  it("reads an error answer as every call does, in the server's words", async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ error: { code: 'not_found', message: 'No such template' } }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = await apiBlob('/api/tracker/template').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'No such template' });
  });

  it('says so in words when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiBlob('/api/tracker/template')).rejects.toMatchObject({
      code: 'network_error',
      message: 'Cannot reach the server. Check your connection and try again.',
    });
  });
});
