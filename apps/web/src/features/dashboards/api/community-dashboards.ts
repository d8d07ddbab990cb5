import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export const imageUrl = (id: string, position: number) => `/api/community-dashboards/${id}/images/${position}`;

/** Mutations on one entry; each reloads the gallery when it succeeds (the vote's new count comes from there). */
function useEntryMutation<Input, Output>(request: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}

export const useVote = () =>
  useEntryMutation((input: { id: string; action: 'Vote' | 'Voted' }) =>
    apiRequest<{ votes: number; userVoted: boolean; message: string }>(`/api/community-dashboards/${input.id}/vote`, {
      method: 'POST',
      body: { action: input.action },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );

export const useReview = () =>
  useEntryMutation((input: { id: string; text: string }) =>
    apiRequest<void>(`/api/community-dashboards/${input.id}/reviews`, {
      method: 'POST',
      body: { text: input.text },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );

export const useSetStatus = () =>
  useEntryMutation((input: { id: string; status: 'approved' | 'rejected'; comment: string }) =>
    apiRequest<void>(`/api/community-dashboards/${input.id}/status`, {
      method: 'POST',
      body: { status: input.status, comment: input.comment },
      timeoutMs: DASHBOARD_LIMITS.timeoutMs,
    }),
  );
