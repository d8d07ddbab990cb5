import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  migrationPlanSchema,
  migrationRequestSchema,
  migrationRulesSchema,
  migrationRunListSchema,
  migrationRunSchema,
  migrationSourceRequestSchema,
  migrationUndoRequestSchema,
} from '@ce/contract';
import { errorResponses } from '../../core/errors.js';
import { runRoutes } from '../../core/runs/run-routes.js';
import type { AlertsMigrationService } from './alerts-migration.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);

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

  await app.register(
    runRoutes({
      runs: migration.runs,
      tag: 'alerts-migration',
      prefix: '/api/alerts-migration/runs',
      run: migrationRunSchema,
      start: {
        operationId: 'createAlertsMigration',
        summary: 'Start a migration; the server plans it again and carries it out, each write exactly once',
        body: migrationRequestSchema,
        create: (user, body) => migration.create(user, body),
      },
      list: {
        operationId: 'listAlertsMigrations',
        summary: 'Your recent migrations and undos, newest first',
        response: migrationRunListSchema,
      },
      get: { operationId: 'getAlertsMigration', summary: 'One migration with every item, its outcome and new id' },
      undo: {
        operationId: 'undoAlertsMigration',
        summary: 'Undo a migration: delete the rules it created, restore those it updated or moved',
        body: migrationUndoRequestSchema,
      },
      results: {
        operationId: 'downloadAlertsMigrationResults',
        summary: 'The results file of a migration: XLSX (default) or CSV, text formula-safe',
      },
    }),
  );
};
