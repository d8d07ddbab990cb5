import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema, feedbackRequestSchema, feedbackResponseSchema } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { FeedbackService } from './feedback.service.js';

export const feedbackRoutes: FastifyPluginAsyncZod<{ feedback: FeedbackService }> = async (app, { feedback }) => {
  app.post(
    '/api/feedback',
    {
      schema: {
        operationId: 'sendFeedback',
        tags: ['dashboard'],
        summary: 'Send feedback to the team that runs the toolkit (mailed to the support address)',
        body: feedbackRequestSchema,
        response: {
          200: feedbackResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request) => feedback.send(requireUser(request), request.body),
  );
};
