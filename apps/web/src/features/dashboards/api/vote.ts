import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useEntryMutation } from './entry-mutation';

export const useVote = () =>
  useEntryMutation((input: { id: string; action: 'Vote' | 'Voted' }) =>
    apiRequest<{ votes: number; userVoted: boolean; message: string }>(`/api/community-dashboards/${input.id}/vote`, {
      method: 'POST',
      body: { action: input.action },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );
