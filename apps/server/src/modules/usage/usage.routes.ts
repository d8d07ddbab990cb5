import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema, dashboardMetricsSchema } from '@ce/contract';
import type { UsageService } from './usage.service.js';

export const usageRoutes: FastifyPluginAsyncZod<{ usage: UsageService }> = async (app, { usage }) => {
  app.get(
    '/api/dashboard/metrics',
    {
      schema: {
        operationId: 'getDashboardMetrics',
        tags: ['dashboard'],
        summary: 'Every counter of the dashboard home, in one answer',
        response: { 200: dashboardMetricsSchema, 401: apiErrorSchema },
      },
    },
    async () => usage.metrics(),
  );
};
