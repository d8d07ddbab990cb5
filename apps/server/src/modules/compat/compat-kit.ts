import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { COMPAT_MAPS_TO, type OperationId } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { SessionUser } from '@ce/contract';

type Handler = (request: FastifyRequest, reply: FastifyReply, user: SessionUser) => Promise<unknown>;

/**
 * A path parameter that names one of a few original calls: the document lists them (a script author sees
 * which exist) and any other name is refused with them in words.
 */
export const callName = <const T extends readonly string[]>(names: T, refusal: string) =>
  z.enum(names, { error: () => `${refusal} ${names.join(', ')}.` });

/**
 * Registers one original call: under its path as the original app called it (documented, tagged `compat`,
 * deprecated, naming the operations it is translated onto) and, for a path ending in "/", also without the
 * slash (hidden from the document). The operation id puts it under the contract's access table like any
 * operation of the product.
 */
export function originalCall(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  operationId: OperationId,
  summary: string,
  handler: Handler,
  options: RouteShorthandOptions & { params?: z.ZodObject } = {},
): void {
  const { params, ...routeOptions } = options;
  const mapsTo = COMPAT_MAPS_TO[operationId] ?? [];
  const description = mapsTo.length
    ? `Translated onto ${mapsTo.map((id) => `\`${id}\``).join(', ')}: use that operation instead.`
    : 'Not translated: see the answer.';
  const register = (url: string, hide: boolean) =>
    app.route({
      ...routeOptions,
      method,
      url,
      schema: {
        operationId,
        tags: ['compat'],
        deprecated: true,
        summary,
        description,
        ...(params ? { params } : {}),
        ...(hide ? { hide } : {}),
      },
      handler: async (request, reply) => {
        const answer = await handler(request, reply, requireUser(request));
        return reply.sent ? reply : answer;
      },
    });
  register(path, false);
  if (path.endsWith('/') && path.length > 1) register(path.slice(0, -1), true);
}
