import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiTokenListSchema,
  apiTokenSchema,
  apiTokenSettingsSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { errorResponses } from '../../core/errors.js';
import type { ApiTokensService } from './api-tokens.service.js';

const errors = errorResponses(400, 401, 403);

/** Personal API tokens in Settings: one's own (made, listed, revoked), and everyone's for Super Users. */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ apiTokens: ApiTokensService }> = async (app, { apiTokens }) => {
  app.get(
    '/api/account/api-tokens/settings',
    {
      schema: {
        operationId: 'getApiTokenSettings',
        tags: ['account'],
        summary: 'How long a token may live, and the capabilities the user may give one',
        response: { 200: apiTokenSettingsSchema, ...errors },
      },
    },
    async (request) => apiTokens.settings(requireUser(request)),
  );

  app.get(
    '/api/account/api-tokens',
    {
      schema: {
        operationId: 'listMyApiTokens',
        tags: ['account'],
        summary: "The signed-in user's personal API tokens, with their last use",
        response: { 200: apiTokenListSchema, ...errors },
      },
    },
    async (request) => ({ tokens: await apiTokens.list(requireUser(request)) }),
  );

  app.post(
    '/api/account/api-tokens',
    {
      schema: {
        operationId: 'createApiToken',
        tags: ['account'],
        summary: 'Make a personal API token: shown once in the answer, stored only as its hash',
        description:
          'A script sends it as `Authorization: Bearer <token>` and acts as the user within the capabilities chosen, without CSRF.',
        body: createApiTokenSchema,
        response: { 201: createdApiTokenSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await apiTokens.create(requireUser(request), request.body, request.ip);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/account/api-tokens/:tokenId',
    {
      schema: {
        operationId: 'revokeApiToken',
        tags: ['account'],
        summary: "Revoke one of your tokens (a Super User: anyone's)",
        params: z.object({ tokenId: z.uuid() }),
        response: { 200: apiTokenSchema, ...errors, 404: apiErrorSchema },
      },
    },
    async (request) => apiTokens.revoke(requireUser(request), request.params.tokenId, request.ip),
  );

  app.get(
    '/api/api-tokens',
    {
      schema: {
        operationId: 'listAllApiTokens',
        tags: ['users'],
        summary: "Every user's personal API tokens (Super Users)",
        response: { 200: apiTokenListSchema, ...errors },
      },
    },
    async () => ({ tokens: await apiTokens.listAll() }),
  );
};
