import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkAgentsRequestSchema,
  bulkAgentsResponseSchema,
  bulkRolesRequestSchema,
  bulkRolesResponseSchema,
  bulkRunListSchema,
  bulkRunSchema,
  bulkTestsListRequestSchema,
  bulkTestsListResponseSchema,
  bulkTestsPlanRequestSchema,
  bulkTestsPlanSchema,
  createBulkRunSchema,
  duplicateScanRequestSchema,
  duplicateScanResponseSchema,
  undoBulkRunSchema,
} from '@ce/contract';
import { runRoutes } from '../../core/runs/run-routes.js';
import { VISIBLE_KINDS } from './bulk.runs.js';
import type { BulkService } from './bulk.service.js';
import { errorResponses } from '../../core/errors.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const listQuery = z.object({ view: z.enum(['tests', 'agents', 'labels', 'users']).default('tests') });

/** The bulk-operations API: reads that help choose, and runs that the server carries out (the run routes). */
export const bulkRoutes: FastifyPluginAsyncZod<{ bulk: BulkService }> = async (app, { bulk }) => {
  /** Every bulk operation is listed under one tag in the API document. */
  const tagged = { tags: ['bulk'] };

  app.post(
    '/api/bulk/agents',
    {
      schema: {
        ...tagged,
        operationId: 'listBulkAgents',
        summary: 'The agents of every chosen account group',
        body: bulkAgentsRequestSchema,
        response: { 200: bulkAgentsResponseSchema, ...errors },
      },
    },
    async (request) => bulk.agents(request.body.token, request.body.accountGroups),
  );

  app.post(
    '/api/bulk/tests',
    {
      schema: {
        ...tagged,
        operationId: 'listBulkTests',
        summary: 'The tests of every chosen account group',
        body: bulkTestsListRequestSchema,
        response: { 200: bulkTestsListResponseSchema, ...errors },
      },
    },
    async (request) => bulk.tests(request.body.token, request.body.accountGroups),
  );

  app.post(
    '/api/bulk/roles',
    {
      schema: {
        ...tagged,
        operationId: 'listBulkRoles',
        summary: "The roles of the token's organization",
        body: bulkRolesRequestSchema,
        response: { 200: bulkRolesResponseSchema, ...errors },
      },
    },
    async (request) => bulk.roles(request.body.token),
  );

  app.post(
    '/api/bulk/tests/plan',
    {
      schema: {
        ...tagged,
        operationId: 'planBulkTests',
        summary: 'What a bulk tests run would do: template x account group, create or skip or blocked',
        body: bulkTestsPlanRequestSchema,
        response: { 200: bulkTestsPlanSchema, ...errors },
      },
    },
    async (request) => bulk.plan(request.body.token, request.body.accountGroups, request.body.templates),
  );

  app.post(
    '/api/bulk/agents/duplicates',
    {
      schema: {
        ...tagged,
        operationId: 'scanDuplicateAgents',
        summary: 'Enterprise agents that share an IP address and a location, in the chosen account groups',
        body: duplicateScanRequestSchema,
        response: { 200: duplicateScanResponseSchema, ...errors },
      },
    },
    async (request) => bulk.scanDuplicates(request.body.token, request.body.accountGroups),
  );

  await app.register(
    runRoutes({
      runs: bulk.runs,
      tag: 'bulk',
      prefix: '/api/bulk/runs',
      run: bulkRunSchema,
      start: {
        operationId: 'createBulkRun',
        summary: 'Start a bulk run (tests, agent deletion, labels or user invitations); it runs on the server',
        body: createBulkRunSchema,
        create: (user, body) => bulk.create(user, body),
      },
      list: {
        operationId: 'listBulkRuns',
        summary: 'Your recent bulk runs of one kind, newest first',
        query: listQuery,
        kinds: ({ view }) => VISIBLE_KINDS[view],
        response: bulkRunListSchema,
      },
      get: { operationId: 'getBulkRun', summary: 'One bulk run with every item and its outcome' },
      undo: {
        operationId: 'undoBulkRun',
        summary: 'Delete exactly the tests a bulk tests run created (a run of its own)',
        body: undoBulkRunSchema,
      },
    }),
  );
};
