import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { restorePlanSchema, restoreRequestSchema, restoreRunSchema, restoreUndoSchema } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { errorResponses } from '../../core/errors.js';
import { runRoutes } from '../../core/runs/run-routes.js';
import type { RestoresService } from './backup-restore-restores.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const backupParams = z.object({ id: z.uuid() });

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

  await app.register(
    runRoutes({
      runs: restores.runs,
      tag: 'backup-restore',
      prefix: '/api/restores',
      run: restoreRunSchema,
      start: {
        operationId: 'createRestore',
        summary: 'Restore the chosen items; the server plans again and writes each change once, tests first',
        path: '/api/backups/:id/restore',
        params: backupParams,
        body: restoreRequestSchema,
        create: (user, body, params) => restores.create(user, backupParams.parse(params).id, body),
      },
      get: { operationId: 'getRestore', summary: 'One restore (or its undo) with every item and its outcome' },
      undo: {
        operationId: 'undoRestore',
        summary: 'Undo a restore: delete what it created, put back what it updated or deleted',
        body: restoreUndoSchema,
      },
      results: {
        operationId: 'downloadRestoreResults',
        summary: 'The results file of a restore: XLSX (default) or CSV, text formula-safe',
      },
    }),
  );
};
