import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { useEntryMutation } from './entry-mutation';

/** POST /api/community-dashboards/:id/vote: a vote, or taking it back; the gallery reloads with the new count. */
export const useVote = (meta?: ErrorToastMeta) =>
  useEntryMutation(
    (input: { id: string; action: 'Vote' | 'Voted' }) =>
      apiRequest<{ votes: number; userVoted: boolean; message: string }>(`/api/community-dashboards/${input.id}/vote`, {
        method: 'POST',
        body: { action: input.action },
        timeoutMs: DASHBOARD_LIMITS.timeoutMs,
      }),
    meta,
  );
