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
} from '@ce/contract';
import { unauthorized } from '../../platform/errors.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { UsersService } from './users.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

/** User management for Super Users; every change goes to the audit log. */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService; audit: AuditRepository }> = async (
  app,
  { users, audit },
) => {
  const actor = (request: { user: { id: string; email: string } | null }) => {
    if (!request.user) throw unauthorized();
    return { id: request.user.id, email: request.user.email };
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
        summary: 'Create an account with a role; the temporary password is shown once (Super User)',
        body: inviteUserInputSchema,
        response: { 201: inviteUserResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const by = actor(request);
      const created = await users.add({
        email: request.body.email,
        role: request.body.role,
        name: request.body.name ?? null,
      });
      await audit.record(by, 'user.invited', created.user.email, { role: created.user.role });
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
    async (request) => {
      const by = actor(request);
      const user = await users.update(request.params.userId, request.body, by.id);
      if (request.body.role !== undefined)
        await audit.record(by, 'user.role_changed', user.email, { role: request.body.role });
      if (request.body.disabled !== undefined)
        await audit.record(by, request.body.disabled ? 'user.disabled' : 'user.enabled', user.email);
      return { user };
    },
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
    async () => ({ entries: await audit.list() }),
  );
};
