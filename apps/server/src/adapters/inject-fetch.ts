import type { FastifyInstance } from 'fastify';

/**
 * A fetch that answers requests for `origin` by injecting them into this app, so the embedded sandbox
 * is reached without a socket or a port. Other origins go to the real fetch.
 */
export function injectFetch(app: FastifyInstance, origin: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) return fetch(input, init);
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    // A Request serialises any body (JSON text, FormData with its multipart boundary) the way fetch would.
    const request = new Request(url, {
      method: init?.method ?? 'GET',
      headers: init?.headers,
      body: init?.body ?? null,
      ...(init?.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const payload = init?.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const injected = app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers.entries()), host: url.host },
      payload,
    });
    const response = await new Promise<Awaited<typeof injected>>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
      signal?.addEventListener('abort', onAbort, { once: true });
      injected.then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort));
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, item);
    }
    const status = response.statusCode;
    const body = status === 204 || status === 304 ? null : new Uint8Array(response.rawPayload);
    return new Response(body, {
      status,
      headers: responseHeaders,
    });
  };
}
