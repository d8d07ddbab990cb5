import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { useEntryMutation } from './entry-mutation';

/** POST /api/community-dashboards/:id/reviews: a review of an entry. */
export const useReview = (meta?: ErrorToastMeta) =>
  useEntryMutation(
    (input: { id: string; text: string }) =>
      apiRequest<void>(`/api/community-dashboards/${input.id}/reviews`, {
        method: 'POST',
        body: { text: input.text },
        timeoutMs: DASHBOARD_LIMITS.timeoutMs,
      }),
    meta,
  );
