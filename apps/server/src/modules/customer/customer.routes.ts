import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountGroupsRequestSchema, accountGroupsResponseSchema, apiErrorSchema } from '@ce/contract';
import type { CustomerService } from './customer.service.js';

/** The one read every tool that takes a customer's token starts with. */
export const customerRoutes: FastifyPluginAsyncZod<{ customer: CustomerService }> = async (app, { customer }) => {
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
};
