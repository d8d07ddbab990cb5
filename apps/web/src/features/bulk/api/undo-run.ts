import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BulkRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { runQueryKey } from './run';
import { runsQueryKey } from './runs';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/runs/:id/undo: deletes exactly the tests a run created, as a run of its own. */
export const undoRun = ({ id, token }: { id: string; token: string }) =>
  apiRequest<BulkRun>(`/api/bulk/runs/${id}/undo`, { method: 'POST', body: { token } });

export function useUndoRun(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: undoRun,
    onSuccess: async (run) => {
      queryClient.setQueryData(runQueryKey(run.id), run);
      await queryClient.invalidateQueries({ queryKey: ['bulk-run'] });
      await queryClient.invalidateQueries({ queryKey: runsQueryKey() });
    },
  });
}
