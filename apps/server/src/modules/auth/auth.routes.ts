import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appInfoSchema, apiErrorSchema, loginInputSchema, SESSION_COOKIE, sessionResponseSchema } from '@ce/contract';
import type { CookieSecurity } from '../../platform/csrf.js';
import { unauthorized } from '../../platform/errors.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  cookies: CookieSecurity;
  sessionMaxAgeMs: number;
  supportEmail: string;
  demoMode: boolean;
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth, cookies } = options;

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
    async () => ({ supportEmail: options.supportEmail, demoMode: options.demoMode }),
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
        summary: 'Sign in with email and password',
        body: loginInputSchema,
        response: { 200: sessionResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (request.user) {
        // Spec section 4: signing in while signed in is refused; the client goes to /home.
        return reply.status(409).send({
          error: { code: 'already_signed_in', message: 'Already signed in: sign out first', requestId: request.id },
        });
      }
      const { sessionId, user } = await auth.signIn(request.body.email, request.body.password, {
        userAgent: request.headers['user-agent'] ?? null,
        ipAddress: request.ip,
      });
      reply.setCookie(SESSION_COOKIE, sessionId, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: cookies.secure(request),
        maxAge: Math.floor(options.sessionMaxAgeMs / 1000),
      });
      request.log.info({ userId: user.id }, 'signed in');
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
        response: { 200: z.object({ endedSessions: z.number().int() }), ...errors },
      },
    },
    async (request, reply) => {
      if (!request.user) throw unauthorized();
      const endedSessions = await auth.signOutEverywhere(request.user.id);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      request.log.info({ userId: request.user.id, endedSessions }, 'signed out everywhere');
      return { endedSessions };
    },
  );
};
