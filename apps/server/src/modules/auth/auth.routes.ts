import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSessionsResponseSchema,
  apiErrorSchema,
  appInfoSchema,
  messageResponseSchema,
  SESSION_COOKIE,
  sessionResponseSchema,
  signOutQuerySchema,
  signOutResponseSchema,
  type AppInfo,
  type SessionUser,
} from '@ce/contract';
import { rotateCsrfCookie } from '../../core/csrf.js';
import { AppError, errorResponses, unauthorized } from '../../core/errors.js';
import type { AuthService } from './auth.service.js';
import { SSO_ID_TOKEN_COOKIE } from './browser-session.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  appInfo: AppInfo;
  /** Where the browser goes to end the identity provider's session, for SSO sessions. */
  providerLogoutUrl: (idToken: string | undefined) => Promise<string | undefined>;
  /** Revokes every personal API token of the user (the api-tokens module's); how many. */
  revokeApiTokens: (user: SessionUser, ipAddress: string | null) => Promise<number>;
}

const errors = errorResponses(400, 401, 403, 429);

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth } = options;

  app.get(
    '/api/app-info',
    {
      schema: {
        operationId: 'getAppInfo',
        tags: ['session'],
        summary: 'What the sign-in page needs before anyone signs in',
        response: { 200: appInfoSchema },
      },
    },
    async () => options.appInfo,
  );

  app.get(
    '/api/session',
    {
      schema: {
        operationId: 'getSession',
        tags: ['session'],
        summary: 'The signed-in user',
        response: { 200: sessionResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized();
      return { user: request.user };
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        operationId: 'logout',
        tags: ['session'],
        summary:
          'Sign out everywhere: ends every session of the user, and with `revokeApiTokens=true` revokes their personal API tokens too',
        querystring: signOutQuerySchema,
        response: { 200: signOutResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.user || !request.session) throw unauthorized();
      const providerLogoutUrl =
        request.session.method === 'sso'
          ? await options.providerLogoutUrl(request.jar.get(SSO_ID_TOKEN_COOKIE))
          : undefined;
      // The tokens first: a sign-out that asked for them never leaves one working behind a failure.
      const revokedApiTokens = request.query.revokeApiTokens
        ? await options.revokeApiTokens(request.user, request.ip)
        : 0;
      const endedSessions = await auth.signOutEverywhere(request.user.id);
      request.jar.clear(SESSION_COOKIE);
      request.jar.clear(SSO_ID_TOKEN_COOKIE);
      rotateCsrfCookie(request.jar);
      request.log.info({ userId: request.user.id, endedSessions, revokedApiTokens }, 'signed out everywhere');
      return { endedSessions, revokedApiTokens, ...(providerLogoutUrl ? { providerLogoutUrl } : {}) };
    },
  );

  app.get(
    '/api/account/sessions',
    {
      schema: {
        operationId: 'listMySessions',
        tags: ['account'],
        summary: "The signed-in user's active sessions",
        response: { 200: accountSessionsResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.user || !request.session) throw unauthorized();
      return { sessions: await auth.list(request.user.id, request.session.idHash) };
    },
  );

  app.delete(
    '/api/account/sessions/:sessionId',
    {
      schema: {
        operationId: 'endMySession',
        tags: ['account'],
        summary: 'End one of your sessions',
        params: z.object({ sessionId: z.uuid() }),
        response: { 200: messageResponseSchema, ...errors, 404: apiErrorSchema },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized();
      if (!(await auth.end(request.user.id, request.params.sessionId)))
        throw new AppError(404, 'session_not_found', 'No such session');
      return { message: 'Session ended.' };
    },
  );
};
