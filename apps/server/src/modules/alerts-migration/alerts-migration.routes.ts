import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  migrationPlanSchema,
  migrationRequestSchema,
  migrationRulesSchema,
  migrationRunListSchema,
  migrationRunSchema,
  migrationSourceRequestSchema,
  migrationUndoRequestSchema,
  resultsFormatQuerySchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { sendAttachment } from '../../core/attachment.js';
import { errorResponses } from '../../core/errors.js';
import type { AlertsMigrationService } from './alerts-migration.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const runParams = z.object({ runId: z.uuid() });

/** The alerts-migration API: the source's rules, the plan, and migrations carried out by the server. */
export const alertsMigrationRoutes: FastifyPluginAsyncZod<{ migration: AlertsMigrationService }> = async (
  app,
  { migration },
) => {
  const tagged = { tags: ['alerts-migration'] };

  app.post(
    '/api/alerts-migration/rules',
    {
      schema: {
        ...tagged,
        operationId: 'listMigrationRules',
        summary: "The source account group's alert rules (in detail) and its suppression windows",
        body: migrationSourceRequestSchema,
        response: { 200: migrationRulesSchema, ...errors },
      },
    },
    async (request) => migration.rules(request.body),
  );

  app.post(
    '/api/alerts-migration/plan',
    {
      schema: {
        ...tagged,
        operationId: 'planAlertsMigration',
        summary: 'What a migration would do per rule and target (create, update, unchanged, conflict); writes nothing',
        body: migrationRequestSchema,
        response: { 200: migrationPlanSchema, ...errors },
      },
    },
    async (request) => migration.plan(request.body),
  );

  app.post(
    '/api/alerts-migration/runs',
    {
      schema: {
        ...tagged,
        operationId: 'createAlertsMigration',
        summary: 'Start a migration; the server plans it again and carries it out, each write exactly once',
        body: migrationRequestSchema,
        response: { 202: migrationRunSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(await migration.create(requireUser(request), request.body)),
  );

  app.get(
    '/api/alerts-migration/runs',
    {
      schema: {
        ...tagged,
        operationId: 'listAlertsMigrations',
        summary: 'Your recent migrations and undos, newest first',
        response: { 200: migrationRunListSchema, ...errors },
      },
    },
    async (request) => ({ runs: await migration.list(requireUser(request)) }),
  );

  app.get(
    '/api/alerts-migration/runs/:runId',
    {
      schema: {
        ...tagged,
        operationId: 'getAlertsMigration',
        summary: 'One migration with every item, its outcome and new id',
        params: runParams,
        response: { 200: migrationRunSchema, ...errors },
      },
    },
    async (request) => migration.get(requireUser(request), request.params.runId),
  );

  app.post(
    '/api/alerts-migration/runs/:runId/undo',
    {
      schema: {
        ...tagged,
        operationId: 'undoAlertsMigration',
        summary: 'Undo a migration: delete the rules it created, restore those it updated or moved',
        params: runParams,
        body: migrationUndoRequestSchema,
        response: { 202: migrationRunSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await migration.undo(requireUser(request), request.params.runId, request.body)),
  );

  app.get(
    '/api/alerts-migration/runs/:runId/results',
    {
      schema: {
        ...tagged,
        operationId: 'downloadAlertsMigrationResults',
        summary: 'The results file of a migration: XLSX (default) or CSV, text formula-safe',
        params: runParams,
        querystring: resultsFormatQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await migration.results(requireUser(request), request.params.runId, request.query.format);
      return sendAttachment(reply, file);
    },
  );
};
