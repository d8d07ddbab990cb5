import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { clientInfo, SSO_ID_TOKEN_COOKIE, startBrowserSession } from '../auth/index.js';
import type { SsoService } from './sso.service.js';

const PENDING_COOKIE = 'ce_sso';

export const ssoRoutes: FastifyPluginAsyncZod<{
  sso: SsoService | null;
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
      request.jar.set(PENDING_COOKIE, cookie, { httpOnly: true, maxAgeSeconds: 600 });
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
      const pending = request.jar.get(PENDING_COOKIE);
      request.jar.clear(PENDING_COOKIE);
      try {
        const { sessionId, user, idToken } = await options.sso.finish(callback, pending, clientInfo(request));
        startBrowserSession(request, sessionId, options.sessionMaxAgeMs);
        if (idToken) request.jar.set(SSO_ID_TOKEN_COOKIE, idToken, { httpOnly: true });
        request.log.info({ userId: user.id }, 'signed in with SSO');
        return await reply.redirect('/home', 302);
      } catch (error) {
        // The browser is mid-redirect: the sign-in page shows a fixed message for the code, never free text.
        const code = error instanceof AppError ? error.code : 'sso_failed';
        request.log.warn({ code }, 'SSO sign-in failed');
        return reply.redirect(`/login?error=${encodeURIComponent(code)}`, 302);
      }
    },
  );
};
