import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiOperationsResponseSchema, explorerAnswerSchema, explorerCallSchema } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { ExplorerService } from './explorer.service.js';
import { errorResponses } from '../../core/errors.js';

const errors = errorResponses(400, 401, 403, 502);

/** The API explorer's API (Tools group; writes need apiWrites, checked in the service). */
export const explorerRoutes: FastifyPluginAsyncZod<{ explorer: ExplorerService }> = async (app, { explorer }) => {
  const tagged = { tags: ['explorer'] };
  app.get(
    '/api/explorer/operations',
    {
      schema: {
        ...tagged,
        operationId: 'listApiOperations',
        summary: "The platform's operations, from its OpenAPI document",
        response: { 200: apiOperationsResponseSchema, ...errors },
      },
    },
    async () => ({ source: explorer.source, operations: await explorer.operations() }),
  );
  app.post(
    '/api/explorer/call',
    {
      schema: {
        ...tagged,
        operationId: 'callPlatformApi',
        summary: "Call a platform operation with a customer's token (paced; the token is never kept)",
        body: explorerCallSchema,
        response: { 200: explorerAnswerSchema, ...errors },
      },
    },
    async (request) => explorer.call(requireUser(request), request.body),
  );
};
