import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { COMPAT_MAPS_TO, type OperationId } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { SessionUser } from '@ce/contract';

type Handler = (request: FastifyRequest, reply: FastifyReply, user: SessionUser) => Promise<unknown>;

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
  options: RouteShorthandOptions = {},
): void {
  const mapsTo = COMPAT_MAPS_TO[operationId] ?? [];
  const description = mapsTo.length
    ? `Translated onto ${mapsTo.map((id) => `\`${id}\``).join(', ')}: use that operation instead.`
    : 'Not translated: see the answer.';
  const register = (url: string, hide: boolean) =>
    app.route({
      ...options,
      method,
      url,
      schema: { operationId, tags: ['compat'], deprecated: true, summary, description, ...(hide ? { hide } : {}) },
      handler: async (request, reply) => {
        const answer = await handler(request, reply, requireUser(request));
        return reply.sent ? reply : answer;
      },
    });
  register(path, false);
  if (path.endsWith('/') && path.length > 1) register(path.slice(0, -1), true);
}
