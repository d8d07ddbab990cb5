import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema, notificationsQuerySchema, notificationsResponseSchema } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { NotificationsService } from './notifications.service.js';

export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/api/notifications',
    {
      schema: {
        operationId: 'listMyNotifications',
        tags: ['notifications'],
        summary: "The caller's reports and runs that ended badly since the last poll, and how many are under way",
        querystring: notificationsQuerySchema,
        response: { 200: notificationsResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => notifications.list(requireUser(request), request.query.since, request.session?.startedAt),
  );
};
