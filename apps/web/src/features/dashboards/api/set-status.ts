import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useEntryMutation } from './entry-mutation';

export const useSetStatus = () =>
  useEntryMutation((input: { id: string; status: 'approved' | 'rejected'; comment: string }) =>
    apiRequest<void>(`/api/community-dashboards/${input.id}/status`, {
      method: 'POST',
      body: { status: input.status, comment: input.comment },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );
