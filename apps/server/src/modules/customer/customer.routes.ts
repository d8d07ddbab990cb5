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
  customerEngagementsSchema,
  customerMeasurementsQuerySchema,
  customerMeasurementsSchema,
  customerOverviewQuerySchema,
  customerOverviewSchema,
  engagementParamsSchema,
  linkEngagementSchema,
  tokenCheckSchema,
} from '@ce/contract';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import type { BudgetWaits } from '../../core/budget-waits.js';
import type { CustomerMeasurementsService } from './customer-measurements.service.js';
import type { CustomerOverviewService } from './customer-overview.service.js';
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
  overview: CustomerOverviewService;
  measurements: CustomerMeasurementsService;
}> = async (app, { customer, waits, timeline, overview, measurements }) => {
  app.get(
    '/api/customers/:organizationId/overview',
    {
      schema: {
        operationId: 'getCustomerOverview',
        tags: ['customer'],
        summary:
          "A customer's page at a glance: its latest health check, the three checks to act on, what needs attention, and the period's work, drift, hours and waivers (the timeline's counts)",
        params: customerTimelineParamsSchema,
        querystring: customerOverviewQuerySchema,
        response: { 200: customerOverviewSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => overview.overview(requireUser(request), request.params.organizationId, request.query),
  );
  app.get(
    '/api/customers/:organizationId/measurements',
    {
      schema: {
        operationId: 'getCustomerMeasurements',
        tags: ['customer'],
        summary:
          "A customer's measured trends: what its watches' runs kept of what the platform measured (availability of the worst tests, alerts, the noisiest rules, agents offline, units), oldest first",
        description:
          "From the runs of the caller's watches over the organization (everyone's, for those allowed to see all runs) in the last `days` (at most what the watches keep). `unknown` says what the latest run could not read, and why.",
        params: customerTimelineParamsSchema,
        querystring: customerMeasurementsQuerySchema,
        response: { 200: customerMeasurementsSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => measurements.measurements(requireUser(request), request.params.organizationId, request.query),
  );
  app.get(
    '/api/customers/:organizationId/engagements',
    {
      schema: {
        operationId: 'listCustomerEngagements',
        tags: ['customer'],
        summary: "The time tracker's engagements linked to a customer: the hours logged on them are the customer's",
        params: customerTimelineParamsSchema,
        response: { 200: customerEngagementsSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => overview.engagements(request.params.organizationId),
  );
  app.post(
    '/api/customers/:organizationId/engagements',
    {
      schema: {
        operationId: 'linkCustomerEngagement',
        tags: ['customer'],
        summary: 'Link a time-tracker engagement (its Engagement_ID) to a customer, once',
        description: 'An engagement belongs to one customer: one linked to another is refused (409) and says which.',
        params: customerTimelineParamsSchema,
        body: linkEngagementSchema,
        response: {
          201: customerEngagementsSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await overview.link(requireUser(request), request.params.organizationId, request.body.engagementId)),
  );
  app.delete(
    '/api/customers/:organizationId/engagements/:engagementId',
    {
      schema: {
        operationId: 'unlinkCustomerEngagement',
        tags: ['customer'],
        summary: 'Unlink an engagement from a customer: its hours no longer count as the customer’s',
        params: engagementParamsSchema,
        response: { 204: z.null(), 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await overview.unlink(request.params.organizationId, request.params.engagementId);
      return reply.status(204).send(null);
    },
  );
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
