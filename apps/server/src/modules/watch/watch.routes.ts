import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createWatchSchema,
  storeWatchTokenSchema,
  watchIdParamsSchema,
  watchListQuerySchema,
  watchFindingsSchema,
  watchListSchema,
  watchRunListSchema,
  watchRunSchema,
  watchSchema,
  watchSettingsSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { errorResponses } from '../../core/errors.js';
import type { WatchRunsService } from './watch-runs.service.js';
import type { WatchService } from './watch.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 429, 503);
const tags = ['watches'];

/** Account Watch: a user's watches over customer organizations, and the token each keeps with consent. */
export const watchRoutes: FastifyPluginAsyncZod<{ watches: WatchService; runs: WatchRunsService }> = async (
  app,
  { watches, runs },
) => {
  app.get(
    '/api/watches',
    {
      schema: {
        operationId: 'listWatches',
        tags,
        summary: "The caller's watches, or everyone's (Super Users)",
        querystring: watchListQuerySchema,
        response: { 200: watchListSchema, ...errors },
      },
    },
    async (request) => ({ watches: await watches.list(requireUser(request), request.query.everyone) }),
  );

  app.post(
    '/api/watches',
    {
      schema: {
        operationId: 'createWatch',
        tags,
        summary: "Watch a customer organization: its token is stored with the customer's consent",
        description:
          'The token is checked against the organization and account groups, sealed, and never answered back; ' +
          'the consent (the customer contact who approved it, by name and email, and for how many days, at most ' +
          'WATCH_TOKEN_MAX_DAYS) is kept with it. A user keeps at most WATCH_MAX_PER_USER watches and an organization ' +
          'has at most WATCH_MAX_PER_ORGANIZATION (409 past either); a room channel needs its owner to be a member ' +
          'of the room (Webex memberships, 400 otherwise).',
        body: createWatchSchema,
        response: { 201: watchSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await watches.create(requireUser(request), request.body)),
  );

  app.get(
    '/api/watches/:id',
    {
      schema: {
        operationId: 'getWatch',
        tags,
        summary: 'One watch',
        params: watchIdParamsSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.get(requireUser(request), request.params.id),
  );

  app.put(
    '/api/watches/:id',
    {
      schema: {
        operationId: 'updateWatch',
        tags,
        summary: 'Change what a watch runs, when, where it speaks and when',
        params: watchIdParamsSchema,
        body: watchSettingsSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.update(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/watches/:id',
    {
      schema: {
        operationId: 'deleteWatch',
        tags,
        summary: 'Delete a watch, and its stored token with it',
        params: watchIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await watches.delete(requireUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/watches/:id/pause',
    {
      schema: {
        operationId: 'pauseWatch',
        tags,
        summary: 'Pause a watch (its token stays until it expires or is revoked)',
        params: watchIdParamsSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.pause(requireUser(request), request.params.id),
  );

  app.post(
    '/api/watches/:id/resume',
    {
      schema: {
        operationId: 'resumeWatch',
        tags,
        summary: 'Resume a paused watch that holds an unexpired token',
        params: watchIdParamsSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.resume(requireUser(request), request.params.id),
  );

  app.put(
    '/api/watches/:id/token',
    {
      schema: {
        operationId: 'storeWatchToken',
        tags,
        summary: "Store a new token for a watch, with the customer's consent",
        params: watchIdParamsSchema,
        body: storeWatchTokenSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.storeToken(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/watches/:id/token',
    {
      schema: {
        operationId: 'revokeWatchToken',
        tags,
        summary: 'Revoke the stored token: erased now, and the watch paused until a new one is stored',
        params: watchIdParamsSchema,
        response: { 200: watchSchema, ...errors },
      },
    },
    async (request) => watches.revokeToken(requireUser(request), request.params.id),
  );

  app.post(
    '/api/watches/:id/runs',
    {
      schema: {
        operationId: 'runWatchNow',
        tags,
        summary: 'Run a watch now (its schedule stays as it is)',
        description:
          'Queues one run: the health check and backups it runs, then one message of what changed since its previous ' +
          'run. Refused (409) while a run of the watch is under way or once its consent has expired, and (429) within ' +
          'WATCH_RUN_NOW_EVERY_MINUTES of its previous run on request, saying when it may run again. Runs of one ' +
          "organization's watches work WATCH_RUNS_PER_ORGANIZATION at a time, owners in turn.",
        params: watchIdParamsSchema,
        response: { 202: watchRunSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(await runs.runNow(requireUser(request), request.params.id)),
  );

  app.get(
    '/api/watches/:id/runs',
    {
      schema: {
        operationId: 'listWatchRuns',
        tags,
        summary: "A watch's runs, newest first: when, where each stands, its score and what it said",
        params: watchIdParamsSchema,
        response: { 200: watchRunListSchema, ...errors },
      },
    },
    async (request) => ({ runs: await runs.list(requireUser(request), request.params.id) }),
  );

  app.get(
    '/api/watches/:id/findings',
    {
      schema: {
        operationId: 'listWatchFindings',
        tags,
        summary: "The open findings of a watch's latest health check: what a waiver is made from",
        params: watchIdParamsSchema,
        response: { 200: watchFindingsSchema, ...errors },
      },
    },
    async (request) => runs.findings(requireUser(request), request.params.id),
  );
};
