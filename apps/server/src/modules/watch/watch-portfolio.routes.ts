import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createWaiverSchema,
  endWaiverSchema,
  fleetQuerySchema,
  fleetSchema,
  portfolioQuerySchema,
  portfolioSchema,
  waiverIdParamsSchema,
  waiverListRequestSchema,
  waiverListSchema,
  waiverQuerySchema,
  waiverSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { sendAttachment } from '../../core/attachment.js';
import { errorResponses } from '../../core/errors.js';
import type { WatchFleetService } from './watch-fleet.service.js';
import type { WatchPortfolioService } from './watch-portfolio.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const tags = ['watches'];

/** "My customers" and the waivers of findings per customer. */
export const watchPortfolioRoutes: FastifyPluginAsyncZod<{
  portfolio: WatchPortfolioService;
  fleet: WatchFleetService;
}> = async (app, { portfolio, fleet }) => {
  app.get(
    '/api/watch-portfolio',
    {
      schema: {
        operationId: 'watchPortfolio',
        tags,
        summary: 'My customers: every watched organization with its score, trend and what is open, in decline first',
        querystring: portfolioQuerySchema,
        response: { 200: portfolioSchema, ...errors },
      },
    },
    async (request) => ({ customers: await portfolio.portfolio(requireUser(request), request.query.everyone) }),
  );

  app.get(
    '/api/watch-portfolio/fleet',
    {
      schema: {
        operationId: 'watchFleetSummary',
        tags,
        summary: "The fleet summary of the TAM's book: units against included, tests below target, packs",
        description:
          "Per customer of My customers, from the latest measurements its watches stored (no platform call): this term's units used and projected against included and the day they run out, the tests below the measured checks' availability target, the regressions common to several customers, the last review pack and when the next is due. `format=csv` answers a CSV download.",
        querystring: fleetQuerySchema,
        response: { 200: fleetSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (request.query.format === 'csv') return sendAttachment(reply, await fleet.csv(user, request.query.everyone));
      return fleet.summary(user, request.query.everyone);
    },
  );

  app.get(
    '/api/watch-waivers',
    {
      schema: {
        operationId: 'listWaivers',
        tags,
        summary: "A customer's waived findings in force, for the owner of a watch over it or a Super User",
        description:
          'With a token of the customer instead, ask with POST /api/watch-waivers/list: a token is never put in a URL.',
        querystring: waiverQuerySchema,
        response: { 200: waiverListSchema, ...errors },
      },
    },
    async (request) => ({ waivers: await portfolio.waivers(requireUser(request), request.query) }),
  );

  app.post(
    '/api/watch-waivers/list',
    {
      schema: {
        operationId: 'listWaiversWithToken',
        tags,
        summary: "A customer's waived findings in force, asked with the customer's token (or as a watch owner)",
        description:
          'The token is used once to ask the platform which organization it reaches, never stored; one of another organization is refused (403).',
        body: waiverListRequestSchema,
        response: { 200: waiverListSchema, ...errors },
      },
    },
    async (request) => ({ waivers: await portfolio.waivers(requireUser(request), request.body) }),
  );

  app.post(
    '/api/watch-waivers',
    {
      schema: {
        operationId: 'createWaiver',
        tags,
        summary: 'Waive a finding (or a whole check) for a customer, with a reason, until it expires',
        description:
          "A waived finding is listed apart and counts in neither a watch's score delta nor its message; it returns when the waiver expires. Only the owner of a watch over the organization, a caller with a token of it (`token`), or a Super User waives; a watch's owner is told of a waiver someone else made. At most WAIVERS_PER_ORGANIZATION_MAX are in force per organization (409 past it).",
        body: createWaiverSchema,
        response: { 201: waiverSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await portfolio.waive(requireUser(request), request.body)),
  );

  app.delete(
    '/api/watch-waivers/:id',
    {
      schema: {
        operationId: 'deleteWaiver',
        tags,
        summary: 'End a waiver now: the finding counts again from the next run',
        description:
          "Its author, the owner of a watch over its organization, a caller with a token of it (the body's `token`), or a Super User.",
        params: waiverIdParamsSchema,
        body: endWaiverSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await portfolio.unwaive(requireUser(request), request.params.id, request.body?.token);
      return reply.status(204).send(null);
    },
  );
};
