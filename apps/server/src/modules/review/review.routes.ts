import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  reviewCustomerSchema,
  reviewNarrativeResponseSchema,
  reviewNarrativeSaveSchema,
  reviewPreviewRequestSchema,
  reviewPreviewSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { ReviewService } from './review.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };
const tied =
  'Only for a caller tied to the organization: the owner of a watch over it, a Super User, or a caller sending a `token` the platform names that organization for (used once, never stored; a token of another organization is refused, 403). The token goes in the body: a token is never put in a URL.';

/** A customer's review pack: the narrative kept for its next pack, and the pack's preview from the database. */
export const reviewRoutes: FastifyPluginAsyncZod<{ review: ReviewService }> = async (app, { review }) => {
  app.post(
    '/api/review-narrative/read',
    {
      schema: {
        operationId: 'getReviewNarrative',
        tags: ['review'],
        summary: "A customer's review narrative: the goals, highlights and next steps kept for its next pack",
        description: tied,
        body: reviewCustomerSchema,
        response: { 200: reviewNarrativeResponseSchema, ...errors },
      },
    },
    async (request) => review.narrative(requireUser(request), request.body),
  );
  app.put(
    '/api/review-narrative',
    {
      schema: {
        operationId: 'saveReviewNarrative',
        tags: ['review'],
        summary: "Save a customer's review narrative over the one kept: the next pack starts from it",
        description: `A pack requested without a narrative says the one kept when it is built; a pack never saves one. ${tied}`,
        body: reviewNarrativeSaveSchema,
        response: { 200: reviewNarrativeResponseSchema, ...errors },
      },
    },
    async (request) => review.saveNarrative(requireUser(request), request.body),
  );
  app.post(
    '/api/review-preview',
    {
      schema: {
        operationId: 'previewReviewPack',
        tags: ['review'],
        summary: "A review pack's slides from what the toolkit stored, before it is built",
        description: `From the caller's watches over the organization (everyone's, for those allowed to see all runs), its health checks, its timeline and its kept narrative, up to the cut-off; no platform call but the token's check. \`platformLater\` names what the pack reads from the platform when it is built. ${tied}`,
        body: reviewPreviewRequestSchema,
        response: { 200: reviewPreviewSchema, ...errors },
      },
    },
    async (request) => review.preview(requireUser(request), request.body),
  );
};
