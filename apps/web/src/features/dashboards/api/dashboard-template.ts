import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_LIMITS } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/community-dashboards/{id}/template: the spec's dashboard_template (its first item is the definition). */
export function useDashboardTemplate(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['community-dashboards', 'template', id],
    queryFn: async () =>
      (
        await apiRequest<{ dashboardTemplate: Record<string, unknown>[] }>(`/api/community-dashboards/${id}/template`, {
          timeoutMs: DASHBOARD_LIMITS.timeoutMs,
        })
      ).dashboardTemplate,
    enabled,
    staleTime: Infinity,
  });
}
