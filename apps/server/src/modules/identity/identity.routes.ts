import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  changePasswordInputSchema,
  loginInputSchema,
  messageResponseSchema,
  newPasswordInputSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  sessionResponseSchema,
  signInResponseSchema,
} from '@ce/contract';
import { errorResponses, unauthorized } from '../../core/errors.js';
import { clientInfo, refuseWhenSignedIn, startBrowserSession } from '../auth/index.js';
import type { IdentityService } from './identity.service.js';

export interface IdentityRoutesOptions {
  identity: IdentityService;
  sessionMaxAgeMs: number;
}

const errors = errorResponses(400, 401, 403, 429);

/** Password sign-in, the first sign-in's new password, password resets and changes. */
export const identityRoutes: FastifyPluginAsyncZod<IdentityRoutesOptions> = async (app, options) => {
  const { identity } = options;

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
};
