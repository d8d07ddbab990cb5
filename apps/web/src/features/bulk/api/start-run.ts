import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BulkRun, type CreateBulkRunInput } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { runWaits } from '../run-waits';
import { runQueryKey } from './run';
import { runsQueryKey } from './runs';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/runs: a run is started on the server. */
export const startRun = (input: CreateBulkRunInput) =>
  apiRequest<BulkRun>('/api/bulk/runs', { method: 'POST', body: input });

export function useStartRun(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    // Started on the user's click: what they wait for the results counts from here.
    mutationFn: async (input: CreateBulkRunInput) => {
      const clickedAt = performance.now();
      const run = await startRun(input);
      runWaits.started(run.id, clickedAt);
      return run;
    },
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryKey(run.id), run);
      return queryClient.invalidateQueries({ queryKey: runsQueryKey() });
    },
  });
}
