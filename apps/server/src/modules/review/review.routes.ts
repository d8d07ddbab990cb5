import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  customerTimelineParamsSchema,
  reviewNarrativeResponseSchema,
  reviewNarrativeSchema,
  reviewPreviewQuerySchema,
  reviewPreviewSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { ReviewService } from './review.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

/** A customer's review pack: the narrative kept for its next pack, and the pack's preview from the database. */
export const reviewRoutes: FastifyPluginAsyncZod<{ review: ReviewService }> = async (app, { review }) => {
  app.get(
    '/api/customers/:organizationId/review-narrative',
    {
      schema: {
        operationId: 'getReviewNarrative',
        tags: ['review'],
        summary: "A customer's review narrative: the goals, highlights and next steps kept for its next pack",
        params: customerTimelineParamsSchema,
        response: { 200: reviewNarrativeResponseSchema, ...errors },
      },
    },
    async (request) => review.narrative(request.params.organizationId),
  );
  app.put(
    '/api/customers/:organizationId/review-narrative',
    {
      schema: {
        operationId: 'saveReviewNarrative',
        tags: ['review'],
        summary: "Save a customer's review narrative over the one kept: the next pack starts from it",
        params: customerTimelineParamsSchema,
        body: reviewNarrativeSchema,
        response: { 200: reviewNarrativeResponseSchema, ...errors },
      },
    },
    async (request) => review.saveNarrative(requireUser(request), request.params.organizationId, request.body),
  );
  app.get(
    '/api/customers/:organizationId/review-preview',
    {
      schema: {
        operationId: 'previewReviewPack',
        tags: ['review'],
        summary: "A review pack's slides from what the toolkit stored, before it is built",
        description:
          "From the caller's watches over the organization (everyone's, for those allowed to see all runs), its health checks and its timeline, up to the cut-off; no platform call. `platformLater` names what the pack reads from the platform when it is built.",
        params: customerTimelineParamsSchema,
        querystring: reviewPreviewQuerySchema,
        response: { 200: reviewPreviewSchema, ...errors },
      },
    },
    async (request) => review.preview(requireUser(request), request.params.organizationId, request.query),
  );
};
