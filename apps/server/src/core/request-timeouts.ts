import type { FastifyInstance } from 'fastify';

export interface RequestTimeouts {
  /** How long any request's body may take to arrive. */
  requestMs: number;
  /** How long an upload's body may take to arrive. */
  uploadMs: number;
}

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * Closes a request whose body does not arrive in time: a caller sending a few bytes at a time cannot hold a
 * connection (and a request slot) open. Every route gets `requestMs`; routes marked `config: { upload: true }`
 * get `uploadMs`. The caller gets a 408 when the answer can still be written, then the connection closes.
 */
export function registerRequestTimeouts(app: FastifyInstance, timeouts: RequestTimeouts): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    // In-process calls (app.inject: the embedded sandbox, tests) have no connection to hold open.
    if (!hasBody(raw.headers) || raw.complete || '_lightMyRequest' in raw) return;
    const limitMs = request.routeOptions.config?.upload ? timeouts.uploadMs : timeouts.requestMs;
    const timer = setTimeout(() => {
      // A timer callback must never throw: it would end the process, not the request.
      try {
        if (raw.complete || raw.destroyed) return;
        const socket = raw.socket ?? reply.raw.socket;
        if (!socket || socket.destroyed) return;
        request.log.warn({ limitMs }, 'the request body did not arrive in time; the connection is closed');
        if (!reply.raw.headersSent && reply.raw.writable) {
          const body = JSON.stringify({
            error: {
              code: 'request_timeout',
              message: 'The request took too long to arrive. Send it again.',
              requestId: request.id,
            },
          });
          reply.raw.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
          reply.raw.end(body, () => socket.destroy());
        } else socket.destroy();
      } catch (error) {
        request.log.warn({ err: error }, 'a slow request could not be closed');
      }
    }, limitMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    // Not when the answer is sent: a body still trickling in after an early answer (a refused sign-in) keeps
    // the connection, so the limit still ends it.
    raw.once('close', clear);
    reply.raw.once('finish', () => {
      if (raw.complete) clear();
    });
  });
}
