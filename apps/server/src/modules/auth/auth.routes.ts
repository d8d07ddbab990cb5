import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSessionsResponseSchema,
  apiErrorSchema,
  appInfoSchema,
  changePasswordInputSchema,
  loginInputSchema,
  messageResponseSchema,
  newPasswordInputSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  SESSION_COOKIE,
  sessionResponseSchema,
  signInResponseSchema,
  signOutResponseSchema,
  type AppInfo,
} from '@ce/contract';
import { rotateCsrfCookie } from '../../core/csrf.js';
import { AppError, unauthorized } from '../../core/errors.js';
import type { IdentityService } from '../identity/identity.service.js';
import type { AuthService, ClientInfo } from './auth.service.js';
import { errorResponses } from '../../core/errors.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  identity: IdentityService;
  sessionMaxAgeMs: number;
  appInfo: AppInfo;
  /** Where the browser goes to end the identity provider's session, for SSO sessions. */
  providerLogoutUrl: (idToken: string | undefined) => Promise<string | undefined>;
}

const errors = errorResponses(400, 401, 403, 429);

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

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth, identity } = options;
  const refuseWhenSignedIn = (request: FastifyRequest) => {
    // Spec section 4: signing in while signed in is refused; the client goes to /home.
    if (request.user) throw new AppError(409, 'already_signed_in', 'Already signed in: sign out first');
  };

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

  app.post(
    '/api/session',
    {
      schema: {
        operationId: 'login',
        tags: ['session'],
        summary: 'Sign in with email and password; may ask for a new password first',
        body: loginInputSchema,
        response: { 200: signInResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request) => {
      refuseWhenSignedIn(request);
      const outcome = await identity.signIn(request.body.email, request.body.password, clientInfo(request));
      if (outcome.kind === 'challenge')
        return { challenge: 'NEW_PASSWORD_REQUIRED' as const, session: outcome.session };
      startBrowserSession(request, outcome.sessionId, options.sessionMaxAgeMs);
      request.log.info({ userId: outcome.user.id }, 'signed in');
      return { user: outcome.user };
    },
  );

  app.post(
    '/api/session/new-password',
    {
      schema: {
        operationId: 'completeNewPassword',
        tags: ['session'],
        summary: 'Set the new password a first sign-in requires, and sign in',
        body: newPasswordInputSchema,
        response: { 200: sessionResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request) => {
      refuseWhenSignedIn(request);
      const { sessionId, user } = await identity.completeNewPassword(
        request.body.session,
        request.body.newPassword,
        clientInfo(request),
      );
      startBrowserSession(request, sessionId, options.sessionMaxAgeMs);
      request.log.info({ userId: user.id }, 'new password set; signed in');
      return { user };
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        operationId: 'logout',
        tags: ['session'],
        summary: 'Sign out everywhere: ends every session of the user',
        response: { 200: signOutResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.user || !request.session) throw unauthorized();
      const providerLogoutUrl =
        request.session.method === 'sso'
          ? await options.providerLogoutUrl(request.jar.get(SSO_ID_TOKEN_COOKIE))
          : undefined;
      const endedSessions = await auth.signOutEverywhere(request.user.id);
      request.jar.clear(SESSION_COOKIE);
      request.jar.clear(SSO_ID_TOKEN_COOKIE);
      rotateCsrfCookie(request.jar);
      request.log.info({ userId: request.user.id, endedSessions }, 'signed out everywhere');
      return { endedSessions, ...(providerLogoutUrl ? { providerLogoutUrl } : {}) };
    },
  );

  app.post(
    '/api/password-reset',
    {
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['session'],
        summary: 'Mail a one-time code to reset the password (the answer never says whether the account exists)',
        body: passwordResetRequestSchema,
        response: { 202: messageResponseSchema, ...errors, 503: apiErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send({ message: await identity.requestReset(request.body.email, clientInfo(request)) }),
  );

  app.post(
    '/api/password-reset/confirm',
    {
      schema: {
        operationId: 'confirmPasswordReset',
        tags: ['session'],
        summary: 'Set a new password with the mailed code',
        body: passwordResetConfirmSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      message: await identity.confirmReset(
        request.body.email,
        request.body.code,
        request.body.newPassword,
        clientInfo(request),
      ),
    }),
  );

  app.put(
    '/api/account/password',
    {
      schema: {
        operationId: 'changePassword',
        tags: ['account'],
        summary: 'Change the password (other sessions end)',
        body: changePasswordInputSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.user || !request.session) throw unauthorized();
      return {
        message: await identity.changePassword(
          request.user.id,
          request.body.oldPassword,
          request.body.newPassword,
          request.session.idHash,
          clientInfo(request),
        ),
      };
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
