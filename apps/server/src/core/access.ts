import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_TOKEN_MESSAGES,
  can,
  userMay,
  OPERATION_ACCESS,
  SESSION_COOKIE,
  SESSION_ONLY_OPERATIONS,
  type Capability,
  type OperationId,
  type SessionUser,
} from '@ce/contract';
import { cookieJar, type CookieJar, type CookieSecurity } from './cookies.js';
import { ensureCsrfCookie, verifyCsrf } from './csrf.js';
import { forbidden, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set for operations that need one. */
    user: SessionUser | null;
    /** The session behind the cookie, when there is one. */
    session: ResolvedSession | null;
    /** This request's cookies under the names its scheme calls for (`__Host-` over https). */
    jar: CookieJar;
  }
}

/** The session behind a request's cookie, as the sessions' owner resolves it. */
export interface ResolvedSession {
  user: SessionUser;
  idHash: string;
  method: string;
  /** When the user signed in: what belongs to the session (its notifications) starts there. */
  startedAt: Date;
}

/** Who turns a session cookie into a session (the auth module); access control only asks. */
export interface SessionResolver {
  resolve(sessionId: string): Promise<ResolvedSession | null>;
}

/** Who turns a personal API token into its user and the capabilities it carries (the api-tokens module). */
export interface BearerResolver {
  authenticate(secret: string, ipAddress: string | null): Promise<{ user: SessionUser } | null>;
}

/** The secret of an `Authorization: Bearer ...` header; '' for a malformed one; undefined for none or another scheme. */
function bearerOf(header: string | undefined): string | undefined {
  if (!header || !/^bearer(\s|$)/i.test(header)) return undefined;
  return /^bearer +(\S+) *$/i.exec(header)?.[1] ?? '';
}

/**
 * Refuses (403) a caller who may not use a capability, naming what is missing: the role (`roleRefusal`, or the
 * plain refusal), or, when the role holds it, the personal API token that does not carry it, by its Settings
 * name. Services ask this for a second capability (a report kind, API explorer writes), never the role alone.
 */
export function requireCapability(user: SessionUser, capability: Capability, roleRefusal?: string): void {
  if (!can(user.role, capability)) throw forbidden(roleRefusal);
  if (!userMay(user, capability)) throw forbidden(API_TOKEN_MESSAGES.notCarried([capability]));
}

/** The signed-in user of a route guarded by a capability (the guard has run: no user here is a 401). */
export function requireUser(request: { user: SessionUser | null }): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

const isOperationId = (value: unknown): value is OperationId =>
  typeof value === 'string' && Object.hasOwn(OPERATION_ACCESS, value);

/**
 * Every /api route must name an operationId that the contract's access table knows; the route is
 * then guarded by that entry: no session -> 401, a role without the capability -> 403. Routes are
 * refused at start-up when they forget, so an unguarded operation cannot ship.
 */
export function registerAccessControl(
  app: FastifyInstance,
  auth: SessionResolver,
  cookies: CookieSecurity,
  tokens?: BearerResolver,
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.decorateRequest('jar', null as unknown as CookieJar);

  app.addHook('onRoute', (route) => {
    // The API document and its viewer are public; only their own paths, not everything sharing a prefix.
    if (!route.url.startsWith('/api/') || route.url === '/api/docs' || route.url.startsWith('/api/docs/')) return;
    const operationId = route.schema?.operationId;
    if (!isOperationId(operationId)) {
      throw new Error(`Route ${route.method} ${route.url} has no operationId listed in OPERATION_ACCESS`);
    }
  });

  // onRequest: refused calls are refused before their body is even read or validated.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    request.jar = cookieJar(request, reply, cookies);
    if (request.url.startsWith('/api/')) ensureCsrfCookie(request.jar);
    const operationId = request.routeOptions.schema?.operationId;
    if (!isOperationId(operationId)) return;
    const capability = OPERATION_ACCESS[operationId];
    // A script's personal token: its user within the token's capabilities. No cookie is involved, so no CSRF.
    const bearer = bearerOf(request.headers.authorization);
    if (bearer !== undefined && tokens) {
      const caller = bearer ? await tokens.authenticate(bearer, request.ip) : null;
      if (!caller) throw unauthorized('This API token is not valid: it is unknown, expired or revoked.');
      request.user = caller.user;
      // Managing the account, its tokens and users is for its owner, signed in: a token is refused whatever it carries.
      if (SESSION_ONLY_OPERATIONS.has(operationId)) throw forbidden(API_TOKEN_MESSAGES.sessionOnly);
      requireCapability(caller.user, capability);
      return;
    }
    const sessionId = request.jar.get(SESSION_COOKIE);
    request.session = sessionId ? await auth.resolve(sessionId) : null;
    request.user = request.session?.user ?? null;
    if (capability !== 'public') {
      if (!request.user) throw unauthorized();
      requireCapability(request.user, capability);
    }
    verifyCsrf(request, request.jar);
  });
}
