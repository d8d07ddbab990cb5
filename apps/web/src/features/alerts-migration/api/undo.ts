import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MigrationRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { migrationQueryKey } from './run';
import { migrationsQueryKey } from './runs';

/** POST /api/alerts-migration/runs/:id/undo: deletes what the migration created, restores the rest. */
export const undoMigration = ({ id, token, targetToken }: { id: string; token: string; targetToken?: string }) =>
  apiRequest<MigrationRun>(`/api/alerts-migration/runs/${id}/undo`, {
    method: 'POST',
    body: targetToken ? { token, targetToken } : { token },
  });

export function useUndoMigration(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: undoMigration,
    onSuccess: async (run, { id }) => {
      queryClient.setQueryData(migrationQueryKey(run.id), run);
      await queryClient.invalidateQueries({ queryKey: migrationQueryKey(id) });
      return queryClient.invalidateQueries({ queryKey: migrationsQueryKey() });
    },
  });
}
