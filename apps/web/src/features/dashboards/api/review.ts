import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useEntryMutation } from './entry-mutation';

export const useReview = () =>
  useEntryMutation((input: { id: string; text: string }) =>
    apiRequest<void>(`/api/community-dashboards/${input.id}/reviews`, {
      method: 'POST',
      body: { text: input.text },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );
