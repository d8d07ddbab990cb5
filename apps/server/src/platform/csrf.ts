import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import { AppError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CookieSecurity {
  secure: (request: FastifyRequest) => boolean;
}

/**
 * Double-submit anti-forgery check. Every API response makes sure the browser holds a random
 * `ce_csrf` cookie readable by the page; every state-changing API request must echo it in the
 * `x-csrf-token` header. A cross-site form can send the cookie but cannot read it to set the header.
 */
export function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply, security: CookieSecurity): void {
  if (request.cookies[CSRF_COOKIE]) return;
  const token = randomBytes(32).toString('base64url');
  request.cookies[CSRF_COOKIE] = token;
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: security.secure(request),
  });
}

export function verifyCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const cookie = request.cookies[CSRF_COOKIE];
  const header = request.headers[CSRF_HEADER];
  if (typeof cookie !== 'string' || typeof header !== 'string' || !sameSecret(cookie, header)) {
    throw new AppError(403, 'csrf_failed', 'The request was refused: reload the page and try again');
  }
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
