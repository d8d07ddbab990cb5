import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  restorePlanSchema,
  restoreRequestSchema,
  restoreRunSchema,
  restoreUndoSchema,
  resultsFormatQuerySchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { sendAttachment } from '../../core/attachment.js';
import { errorResponses } from '../../core/errors.js';
import type { RestoresService } from './restores.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const backupParams = z.object({ id: z.uuid() });
const runParams = z.object({ runId: z.uuid() });

/** The restore API: the plan, the restore carried out by the server, its results and its undo. */
export const restoresRoutes: FastifyPluginAsyncZod<{ restores: RestoresService }> = async (app, { restores }) => {
  const tagged = { tags: ['backup-restore'] };

  app.post(
    '/api/backups/:id/restore/plan',
    {
      schema: {
        ...tagged,
        operationId: 'planRestore',
        summary: 'What restoring the chosen items would do (create, update, unchanged, delete, cannot); writes nothing',
        params: backupParams,
        body: restoreRequestSchema,
        response: { 200: restorePlanSchema, ...errors },
      },
    },
    async (request) => restores.plan(requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/backups/:id/restore',
    {
      schema: {
        ...tagged,
        operationId: 'createRestore',
        summary: 'Restore the chosen items; the server plans again and writes each change once, tests first',
        params: backupParams,
        body: restoreRequestSchema,
        response: { 202: restoreRunSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await restores.create(requireUser(request), request.params.id, request.body)),
  );

  app.get(
    '/api/restores/:runId',
    {
      schema: {
        ...tagged,
        operationId: 'getRestore',
        summary: 'One restore (or its undo) with every item and its outcome',
        params: runParams,
        response: { 200: restoreRunSchema, ...errors },
      },
    },
    async (request) => restores.get(requireUser(request), request.params.runId),
  );

  app.post(
    '/api/restores/:runId/undo',
    {
      schema: {
        ...tagged,
        operationId: 'undoRestore',
        summary: 'Undo a restore: delete what it created, put back what it updated or deleted',
        params: runParams,
        body: restoreUndoSchema,
        response: { 202: restoreRunSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await restores.undo(requireUser(request), request.params.runId, request.body)),
  );

  app.get(
    '/api/restores/:runId/results',
    {
      schema: {
        ...tagged,
        operationId: 'downloadRestoreResults',
        summary: 'The results file of a restore: XLSX (default) or CSV, text formula-safe',
        params: runParams,
        querystring: resultsFormatQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await restores.results(requireUser(request), request.params.runId, request.query.format);
      return sendAttachment(reply, file);
    },
  );
};
