import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@ce/contract';
import type { CookieSecurity } from '../../platform/csrf.js';
import { AppError } from '../../platform/errors.js';
import { clientInfo, setSessionCookie } from '../auth/auth.routes.js';
import type { SsoService } from './sso.service.js';

const PENDING_COOKIE = 'ce_sso';

export const ssoRoutes: FastifyPluginAsyncZod<{
  sso: SsoService | null;
  cookies: CookieSecurity;
  sessionMaxAgeMs: number;
}> = async (app, options) => {
  const notConfigured = () =>
    new AppError(404, 'sso_not_configured', 'Single sign-on is not configured on this installation.');

  app.get(
    '/api/sso/login',
    {
      schema: {
        operationId: 'startSso',
        tags: ['session'],
        summary: 'Start single sign-on: redirects to the identity provider',
        response: { 302: z.null(), 404: apiErrorSchema, 502: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (!options.sso) throw notConfigured();
      const { url, cookie } = await options.sso.start();
      reply.setCookie(PENDING_COOKIE, cookie, {
        path: '/api/sso',
        httpOnly: true,
        sameSite: 'lax',
        secure: options.cookies.secure(request),
        maxAge: 600,
      });
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/api/sso/callback',
    {
      schema: {
        operationId: 'finishSso',
        tags: ['session'],
        summary: 'Where the identity provider returns: opens a session and goes to /home',
        querystring: z.record(z.string(), z.string()),
        response: { 302: z.null(), 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (!options.sso) throw notConfigured();
      const callback = new URL(request.url, options.sso.redirectUri);
      reply.clearCookie(PENDING_COOKIE, { path: '/api/sso' });
      try {
        const { sessionId, user } = await options.sso.finish(
          callback,
          request.cookies[PENDING_COOKIE],
          clientInfo(request),
        );
        setSessionCookie(reply, request, sessionId, options);
        request.log.info({ userId: user.id }, 'signed in with SSO');
        return reply.redirect('/home', 302);
      } catch (error) {
        // The browser is mid-redirect: show the reason on the sign-in page rather than raw JSON.
        const message = error instanceof AppError ? error.message : "Couldn't finish OAuth flow";
        request.log.warn({ code: error instanceof AppError ? error.code : 'sso_failed' }, 'SSO sign-in failed');
        return reply.redirect(`/login?error=${encodeURIComponent(message)}`, 302);
      }
    },
  );
};
