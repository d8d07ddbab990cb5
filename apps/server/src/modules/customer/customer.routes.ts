import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountGroupsRequestSchema,
  accountGroupsResponseSchema,
  apiErrorSchema,
  budgetWaitParamsSchema,
  budgetWaitSchema,
  customerTimelineParamsSchema,
  customerTimelineQuerySchema,
  customerTimelineSchema,
  tokenCheckSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { BudgetWaits } from '../../core/budget-waits.js';
import type { CustomerTimelineService } from './customer-timeline.service.js';
import type { CustomerService } from './customer.service.js';

/**
 * The one read every tool that takes a customer's token starts with, and how long a person's request still
 * waits for the customer's API budget.
 */
export const customerRoutes: FastifyPluginAsyncZod<{
  customer: CustomerService;
  waits: BudgetWaits;
  timeline: CustomerTimelineService;
}> = async (app, { customer, waits, timeline }) => {
  app.get(
    '/api/customers/:organizationId/timeline',
    {
      schema: {
        operationId: 'getCustomerTimeline',
        tags: ['customer'],
        summary:
          "Everything done for one organization through the toolkit, newest first: the caller's own, or everyone's",
        params: customerTimelineParamsSchema,
        querystring: customerTimelineQuerySchema,
        response: { 200: customerTimelineSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => timeline.timeline(requireUser(request), request.params.organizationId, request.query),
  );
  app.get(
    '/api/budget-waits/:requestId',
    {
      schema: {
        operationId: 'getMyBudgetWait',
        tags: ['customer'],
        summary:
          "Whether the caller's request (its x-request-id) waits for a customer's API budget, for whom and about how long",
        params: budgetWaitParamsSchema,
        response: { 200: budgetWaitSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => waits.read(requireUser(request).id, request.params.requestId),
  );
  app.post(
    '/api/account-groups',
    {
      schema: {
        operationId: 'listAccountGroups',
        tags: ['customer'],
        summary: "The account groups a customer's platform token can see (the token is used once, never stored)",
        body: accountGroupsRequestSchema,
        response: {
          200: accountGroupsResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => ({ accountGroups: await customer.accountGroups(request.body.token) }),
  );
  app.post(
    '/api/customers/token-check',
    {
      schema: {
        operationId: 'checkCustomerToken',
        tags: ['customer'],
        summary:
          "The navbar's check of a customer's token: the account groups it sees and what it may do, proved by reads (nothing is written, the token is not kept)",
        body: accountGroupsRequestSchema,
        response: {
          200: tokenCheckSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => customer.checkToken(request.body.token),
  );
};
