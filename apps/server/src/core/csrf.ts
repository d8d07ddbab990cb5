import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import type { CookieJar } from './cookies.js';
import { AppError } from './errors.js';
import { sameSecret } from './same-secret.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit anti-forgery check. Every API response makes sure the browser holds a random
 * `ce_csrf` cookie readable by the page; every state-changing API request must echo it in the
 * `x-csrf-token` header. A cross-site form can send the cookie but cannot read it to set the header.
 */
export function ensureCsrfCookie(jar: CookieJar): void {
  if (!jar.get(CSRF_COOKIE)) rotateCsrfCookie(jar);
}

/** A fresh anti-forgery token, at sign-in and sign-out: one planted before sign-in is worthless after. */
export function rotateCsrfCookie(jar: CookieJar): void {
  jar.set(CSRF_COOKIE, randomBytes(32).toString('base64url'), { httpOnly: false });
}

export function verifyCsrf(request: FastifyRequest, jar: CookieJar): void {
  if (SAFE_METHODS.has(request.method)) return;
  const cookie = jar.get(CSRF_COOKIE);
  const header = request.headers[CSRF_HEADER];
  if (typeof cookie !== 'string' || typeof header !== 'string' || !sameSecret(cookie, header)) {
    throw new AppError(403, 'csrf_failed', 'The request was refused: reload the page and try again');
  }
}
