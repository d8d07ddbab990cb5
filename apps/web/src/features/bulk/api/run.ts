import { useQuery } from '@tanstack/react-query';
import { isFinished, type BulkRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { runWaits } from '../run-waits';

export const runQueryKey = (id: string | null) => ['bulk-run', id] as const;

/** GET /api/bulk/runs/:id: one run, read every second until it has finished (also after a reload). */
export const fetchRun = (id: string) => apiRequest<BulkRun>(`/api/bulk/runs/${id}`);

export function useBulkRun(id: string | null) {
  return useQuery({
    queryKey: runQueryKey(id),
    queryFn: async () => {
      const run = await fetchRun(id ?? '');
      runWaits.read(run);
      return run;
    },
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}
