import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  auditLogResponseSchema,
  inviteUserInputSchema,
  inviteUserResponseSchema,
  updateUserInputSchema,
  userListResponseSchema,
  userResponseSchema,
  type SessionUser,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { UsersService } from './users.service.js';
import { errorResponses } from '../../core/errors.js';

const errors = errorResponses(400, 401, 403);

/**
 * User management for Super Users, signed in: a personal API token is refused every operation here by the access
 * check (`manageUsers` is session-only, decision 0026), so a temporary password never reaches a script.
 * Every change goes to the audit log.
 */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  const actor = (request: { user: SessionUser | null }) => {
    const { id, email, apiToken } = requireUser(request);
    return { id, email, apiToken };
  };

  app.get(
    '/api/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['users'],
        summary: 'Every account (Super User)',
        response: { 200: userListResponseSchema, ...errors },
      },
    },
    async () => ({ users: await users.list() }),
  );

  app.post(
    '/api/users',
    {
      schema: {
        operationId: 'inviteUser',
        tags: ['users'],
        summary: 'Create an account with a role; the temporary password is shown once (Super User, signed in)',
        body: inviteUserInputSchema,
        response: { 201: inviteUserResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const created = await users.invite(
        { email: request.body.email, role: request.body.role, name: request.body.name ?? null },
        actor(request),
      );
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/users/:userId',
    {
      schema: {
        operationId: 'updateUser',
        tags: ['users'],
        summary: 'Change the role of an account, or disable or enable it (Super User)',
        params: z.object({ userId: z.uuid() }),
        body: updateUserInputSchema,
        response: { 200: userResponseSchema, ...errors, 404: apiErrorSchema },
      },
    },
    async (request) => ({ user: await users.change(request.params.userId, request.body, actor(request)) }),
  );

  app.get(
    '/api/audit-log',
    {
      schema: {
        operationId: 'listAuditLog',
        tags: ['users'],
        summary: 'Administrative actions, newest first (Super User)',
        response: { 200: auditLogResponseSchema, ...errors },
      },
    },
    async () => ({ entries: await users.auditLog() }),
  );
};
