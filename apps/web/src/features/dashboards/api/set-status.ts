import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { useEntryMutation } from './entry-mutation';

/** POST /api/community-dashboards/:id/status: a Super User approves or rejects an entry, with a comment. */
export const useSetStatus = (meta?: ErrorToastMeta) =>
  useEntryMutation(
    (input: { id: string; status: 'approved' | 'rejected'; comment: string }) =>
      apiRequest<void>(`/api/community-dashboards/${input.id}/status`, {
        method: 'POST',
        body: { status: input.status, comment: input.comment },
        timeoutMs: DASHBOARD_LIMITS.timeoutMs,
      }),
    meta,
  );
