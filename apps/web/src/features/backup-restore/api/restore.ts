import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isFinished, type RestorePlan, type RestoreRequest, type RestoreRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

type Asked = { id: string; request: RestoreRequest };

/** POST /api/backups/:id/restore/plan: what the restore would do; nothing is written. */
export const fetchRestorePlan = ({ id, request }: Asked) =>
  apiRequest<RestorePlan>(`/api/backups/${id}/restore/plan`, { method: 'POST', body: request });

export function useRestorePlan(meta?: ErrorToastMeta) {
  return useMutation({ meta, mutationFn: fetchRestorePlan });
}

export const restoreQueryKey = (id: string | null) => ['restore', id] as const;

/** POST /api/backups/:id/restore: the server plans again and writes each change once. */
export const startRestore = ({ id, request }: Asked) =>
  apiRequest<RestoreRun>(`/api/backups/${id}/restore`, { method: 'POST', body: request });

export function useStartRestore(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: startRestore,
    onSuccess: (run) => queryClient.setQueryData(restoreQueryKey(run.id), run),
  });
}

/** GET /api/restores/:id: a restore (or its undo), read every second until it has finished. */
export function useRestore(id: string | null) {
  return useQuery({
    queryKey: restoreQueryKey(id),
    queryFn: () => apiRequest<RestoreRun>(`/api/restores/${id ?? ''}`),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}

/** POST /api/restores/:id/undo: deletes what the restore created, puts back what it changed. */
export function useUndoRestore(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: ({ id, ...tokens }: { id: string; token: string; targetToken?: string }) =>
      apiRequest<RestoreRun>(`/api/restores/${id}/undo`, { method: 'POST', body: tokens }),
    onSuccess: async (run, { id }) => {
      queryClient.setQueryData(restoreQueryKey(run.id), run);
      await queryClient.invalidateQueries({ queryKey: restoreQueryKey(id) });
    },
  });
}

/** Where a restore's results file is downloaded from. */
export const restoreResultsUrl = (id: string, format: 'xlsx' | 'csv') => `/api/restores/${id}/results?format=${format}`;
