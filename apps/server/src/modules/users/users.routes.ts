import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema, userListResponseSchema } from '@ce/contract';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/api/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['users'],
        summary: 'Every account (Super User)',
        response: { 200: userListResponseSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async () => ({ users: await users.list() }),
  );
};
