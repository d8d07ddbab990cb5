import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type PushRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { communityQueryKey } from './community-dashboards';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

export interface PushInput extends PushRequest {
  id: string;
}

/** POST /api/community-dashboards/{id}/push: creates the dashboard in the chosen account group. */
export function usePushDashboard(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: ({ id, ...body }: PushInput) =>
      apiRequest<{ message: string; dashboardId: string; title: string; accountGroupName: string }>(
        `/api/community-dashboards/${id}/push`,
        { method: 'POST', body, timeoutMs: DASHBOARD_LIMITS.timeoutMs },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}
