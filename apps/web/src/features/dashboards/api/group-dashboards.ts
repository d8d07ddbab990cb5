import { useMutation } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type GroupDashboard } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/dashboards/group: the dashboards of one account group (a mutation: the token is no cache key). */
export const fetchGroupDashboards = async (input: { token: string; aid: string }): Promise<GroupDashboard[]> =>
  (
    await apiRequest<{ dashboards: GroupDashboard[] }>('/api/dashboards/group', {
      method: 'POST',
      body: input,
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    })
  ).dashboards;

export function useGroupDashboards(meta?: ErrorToastMeta) {
  return useMutation({ mutationFn: fetchGroupDashboards, meta });
}
