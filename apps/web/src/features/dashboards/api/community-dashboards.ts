import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type CommunityDashboard, type DashboardSort } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const communityQueryKey = (search?: string, sort?: DashboardSort) =>
  search === undefined ? (['community-dashboards'] as const) : (['community-dashboards', search, sort] as const);

/** GET /api/community-dashboards: the gallery, searched by title and description, sorted. */
export const fetchCommunityDashboards = async (search: string, sort: DashboardSort) =>
  (
    await apiRequest<{ dashboards: CommunityDashboard[] }>(
      `/api/community-dashboards?${new URLSearchParams({ search, sort }).toString()}`,
      { timeoutMs: DASHBOARD_LIMITS.timeoutMs },
    )
  ).dashboards;

export function useCommunityDashboards(search: string, sort: DashboardSort) {
  return useQuery({
    queryKey: communityQueryKey(search, sort),
    queryFn: () => fetchCommunityDashboards(search, sort),
    placeholderData: (previous) => previous,
  });
}
