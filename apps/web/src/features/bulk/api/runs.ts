import { useQuery } from '@tanstack/react-query';
import { isFinished, type BulkRunSummary } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export type RunView = 'tests' | 'agents' | 'labels' | 'users';

export const runsQueryKey = (view?: RunView) => (view ? (['bulk-runs', view] as const) : (['bulk-runs'] as const));

/** GET /api/bulk/runs?view=: the user's recent runs of one tool, followed while one is going. */
export const fetchRuns = async (view: RunView) =>
  (await apiRequest<{ runs: BulkRunSummary[] }>(`/api/bulk/runs?view=${view}`)).runs;

export function useBulkRuns(view: RunView) {
  return useQuery({
    queryKey: runsQueryKey(view),
    queryFn: () => fetchRuns(view),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((run) => !isFinished(run)) ? 2000 : false),
  });
}
