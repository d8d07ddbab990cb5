import { useQueryClient } from '@tanstack/react-query';
import type { WatchRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation, WATCHES } from './watch-mutation';

/**
 * POST /api/watches/:id/runs: a run now, one at a time. The run made is listed at once, before the runs are read
 * again: the card never says "No run yet." while its run starts.
 */
export function useRunWatchNow() {
  const queryClient = useQueryClient();
  return useWatchMutation(async (id: string) => {
    const run = await apiRequest<WatchRun>(`/api/watches/${id}/runs`, { method: 'POST' });
    queryClient.setQueryData<WatchRun[]>([WATCHES, 'runs', id], (runs = []) => [
      run,
      ...runs.filter((other) => other.id !== run.id),
    ]);
    return run;
  });
}
