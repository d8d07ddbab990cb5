import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type PushPlan, type PushRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { communityQueryKey } from './community-dashboards';

export interface PushInput extends PushRequest {
  id: string;
}

/** POST /api/community-dashboards/{id}/push-plan: what maps and what is dropped, before deploying. */
export function usePushPlan() {
  return useMutation({
    mutationFn: ({ id, ...body }: PushInput) =>
      apiRequest<PushPlan>(`/api/community-dashboards/${id}/push-plan`, {
        method: 'POST',
        body,
        timeoutMs: DASHBOARD_LIMITS.timeoutMs,
      }),
  });
}

/** POST /api/community-dashboards/{id}/push: creates the dashboard in the chosen account group. */
export function usePushDashboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: PushInput) =>
      apiRequest<{ message: string; dashboardId: string; title: string; accountGroupName: string }>(
        `/api/community-dashboards/${id}/push`,
        { method: 'POST', body, timeoutMs: DASHBOARD_LIMITS.timeoutMs },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}
