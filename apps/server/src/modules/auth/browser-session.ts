import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@ce/contract';
import { rotateCsrfCookie } from '../../core/csrf.js';
import { AppError } from '../../core/errors.js';
import type { ClientInfo } from './auth.service.js';

/** The device and address a request comes from, as the sessions list shows them. */
export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  userAgent: request.headers['user-agent'] ?? null,
  ipAddress: request.ip,
});

/** The ID token of an SSO sign-in, kept in the browser (httpOnly) to end the provider's session at sign-out. */
export const SSO_ID_TOKEN_COOKIE = 'ce_sso_id';

/** Hands the browser its new session, and a fresh anti-forgery token with it. */
export function startBrowserSession(request: FastifyRequest, sessionId: string, sessionMaxAgeMs: number) {
  request.jar.set(SESSION_COOKIE, sessionId, { httpOnly: true, maxAgeSeconds: Math.floor(sessionMaxAgeMs / 1000) });
  rotateCsrfCookie(request.jar);
}

/** Spec section 4: signing in while signed in is refused; the client goes to /home. */
export function refuseWhenSignedIn(request: FastifyRequest): void {
  if (request.user) throw new AppError(409, 'already_signed_in', 'Already signed in: sign out first');
}
