import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createWaiverSchema,
  portfolioQuerySchema,
  portfolioSchema,
  waiverIdParamsSchema,
  waiverListSchema,
  waiverQuerySchema,
  waiverSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { errorResponses } from '../../core/errors.js';
import type { WatchPortfolioService } from './watch-portfolio.service.js';

const errors = errorResponses(400, 401, 403, 404);
const tags = ['watches'];

/** "My customers" and the waivers of findings per customer. */
export const watchPortfolioRoutes: FastifyPluginAsyncZod<{ portfolio: WatchPortfolioService }> = async (
  app,
  { portfolio },
) => {
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
    '/api/watch-waivers',
    {
      schema: {
        operationId: 'listWaivers',
        tags,
        summary: "A customer's waived findings in force",
        querystring: waiverQuerySchema,
        response: { 200: waiverListSchema, ...errors },
      },
    },
    async (request) => ({ waivers: await portfolio.waivers(request.query.organizationId) }),
  );

  app.post(
    '/api/watch-waivers',
    {
      schema: {
        operationId: 'createWaiver',
        tags,
        summary: 'Waive a finding (or a whole check) for a customer, with a reason, until it expires',
        description:
          "A waived finding is listed apart and counts in neither a watch's score delta nor its message; it returns when the waiver expires.",
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
        params: waiverIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await portfolio.unwaive(requireUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
