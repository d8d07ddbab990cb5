import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The product's cookies. Over https they carry the `__Host-` prefix: the browser then accepts them only
 * from this exact host, with Secure and Path=/, so a sibling subdomain cannot plant or shadow them.
 * Over plain http (the embedded default on localhost) the prefix is not allowed and the bare name is used.
 */
export interface CookieSecurity {
  secure: (request: FastifyRequest) => boolean;
}

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: { httpOnly: boolean; maxAgeSeconds?: number }): void;
  clear(name: string): void;
}

export const cookieName = (name: string, secure: boolean) => (secure ? `__Host-${name}` : name);

/** Reads and writes the cookies of one request under the names its scheme calls for. */
export function cookieJar(request: FastifyRequest, reply: FastifyReply, security: CookieSecurity): CookieJar {
  const secure = security.secure(request);
  return {
    get: (name) => request.cookies[cookieName(name, secure)],
    set: (name, value, options) => {
      request.cookies[cookieName(name, secure)] = value;
      reply.setCookie(cookieName(name, secure), value, {
        path: '/',
        sameSite: 'lax',
        secure,
        httpOnly: options.httpOnly,
        ...(options.maxAgeSeconds !== undefined ? { maxAge: options.maxAgeSeconds } : {}),
      });
    },
    clear: (name) => {
      delete request.cookies[cookieName(name, secure)];
      reply.clearCookie(cookieName(name, secure), { path: '/', secure, sameSite: 'lax' });
    },
  };
}
