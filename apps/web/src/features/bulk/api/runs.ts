import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isFinished, type BulkRun, type BulkRunSummary, type CreateBulkRunInput } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export type RunView = 'tests' | 'agents' | 'labels' | 'users';

export const runQueryKey = (id: string | null) => ['bulk-run', id] as const;
export const runsQueryKey = (view?: RunView) => (view ? (['bulk-runs', view] as const) : (['bulk-runs'] as const));

/** GET /api/bulk/runs/:id: one run, read every second until it has finished (also after a reload). */
export const fetchRun = (id: string) => apiRequest<BulkRun>(`/api/bulk/runs/${id}`);
export function useBulkRun(id: string | null) {
  return useQuery({
    queryKey: runQueryKey(id),
    queryFn: () => fetchRun(id ?? ''),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}

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

/** POST /api/bulk/runs: a run is started on the server. */
export const startRun = (input: CreateBulkRunInput) =>
  apiRequest<BulkRun>('/api/bulk/runs', { method: 'POST', body: input });
export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRun,
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryKey(run.id), run);
      return queryClient.invalidateQueries({ queryKey: runsQueryKey() });
    },
  });
}

/** POST /api/bulk/runs/:id/undo: deletes exactly the tests a run created, as a run of its own. */
export const undoRun = ({ id, token }: { id: string; token: string }) =>
  apiRequest<BulkRun>(`/api/bulk/runs/${id}/undo`, { method: 'POST', body: { token } });
export function useUndoRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoRun,
    onSuccess: async (run) => {
      queryClient.setQueryData(runQueryKey(run.id), run);
      await queryClient.invalidateQueries({ queryKey: ['bulk-run'] });
      await queryClient.invalidateQueries({ queryKey: runsQueryKey() });
    },
  });
}
