import type { SessionUser } from '@ce/contract';
import { resultsFormatQuerySchema } from '@ce/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../access.js';
import { sendAttachment } from '../attachment.js';
import { errorResponses } from '../errors.js';
import type { RunService } from './run-service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const runParams = z.object({ runId: z.uuid() });
/** What every tool's undo body carries: the token, and the second organization's when the run crossed to one. */
const undoTokens = z.object({ token: z.string(), targetToken: z.string().optional() });

/** An operation of the API document: its id and one line saying what it does. */
interface Operation {
  operationId: string;
  summary: string;
}

/**
 * How a writing tool's runs appear in its API: under its own URL prefix and tag, with its own operation ids
 * and schemas (the contract's). `start` is the tool's (it plans the run from its request and calls the run
 * service's `start`); reading, listing, undoing and the results file are the run service's.
 */
export interface RunRoutesOptions<S extends z.ZodType, Q> {
  runs: RunService<unknown, unknown>;
  tag: string;
  /** Where the runs live: `GET {prefix}/:runId`, `POST {prefix}/:runId/undo`, `GET {prefix}/:runId/results`. */
  prefix: string;
  /** The run's schema as `get`, `start` and `undo` answer it. */
  run: z.ZodType;
  start: Operation & {
    /** Defaults to `prefix`. */
    path?: string;
    params?: z.ZodType;
    body: S;
    /** Plans the run from the request (its path parameters as `params` reads them) and starts it. */
    create(user: SessionUser, body: z.output<S>, params: unknown): Promise<unknown>;
  };
  get: Operation;
  list?: Operation & { response: z.ZodType; query?: z.ZodType<Q>; kinds?(query: Q): readonly string[] };
  /** The undo's body: the tokens (the contract's schema, which `undoTokens` reads). */
  undo: Operation & { body: z.ZodType };
  results?: Operation;
}

/** A writing tool's run routes: the same five operations for every tool, each under the tool's own names. */
export function runRoutes<S extends z.ZodType, Q>(options: RunRoutesOptions<S, Q>): FastifyPluginAsyncZod {
  const { runs, prefix, start, list, undo, results } = options;
  const tags = [options.tag];
  return async (app) => {
    app.post(
      start.path ?? prefix,
      {
        schema: {
          tags,
          operationId: start.operationId,
          summary: start.summary,
          ...(start.params ? { params: start.params } : {}),
          body: start.body,
          response: { 202: options.run, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await start.create(requireUser(request), start.body.parse(request.body), request.params)),
    );

    if (list) {
      const query = list.query;
      app.get(
        prefix,
        {
          schema: {
            tags,
            operationId: list.operationId,
            summary: list.summary,
            ...(query ? { querystring: query } : {}),
            response: { 200: list.response, ...errors },
          },
        },
        async (request) => {
          const kinds = query && list.kinds ? list.kinds(query.parse(request.query)) : undefined;
          return { runs: await runs.list(requireUser(request), kinds) };
        },
      );
    }

    app.get(
      `${prefix}/:runId`,
      {
        schema: {
          tags,
          operationId: options.get.operationId,
          summary: options.get.summary,
          params: runParams,
          response: { 200: options.run, ...errors },
        },
      },
      async (request) => runs.get(requireUser(request), request.params.runId),
    );

    app.post(
      `${prefix}/:runId/undo`,
      {
        schema: {
          tags,
          operationId: undo.operationId,
          summary: undo.summary,
          params: runParams,
          body: undo.body,
          response: { 202: options.run, ...errors },
        },
      },
      async (request, reply) => {
        const { token, targetToken } = undoTokens.parse(request.body);
        const run = await runs.undo(requireUser(request), request.params.runId, { token, targetToken });
        return reply.status(202).send(run);
      },
    );

    if (results)
      app.get(
        `${prefix}/:runId/results`,
        {
          schema: {
            tags,
            operationId: results.operationId,
            summary: results.summary,
            params: runParams,
            querystring: resultsFormatQuerySchema,
          },
        },
        async (request, reply) => {
          const file = await runs.results(requireUser(request), request.params.runId, request.query.format);
          return sendAttachment(reply, file);
        },
      );
  };
}
