import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MigrationRequest, MigrationRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { migrationQueryKey } from './run';
import { migrationsQueryKey } from './runs';

/** POST /api/alerts-migration/runs: the server plans the migration again and carries it out. */
export const startMigration = (request: MigrationRequest) =>
  apiRequest<MigrationRun>('/api/alerts-migration/runs', { method: 'POST', body: request });

export function useStartMigration(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: startMigration,
    onSuccess: (run) => {
      queryClient.setQueryData(migrationQueryKey(run.id), run);
      return queryClient.invalidateQueries({ queryKey: migrationsQueryKey() });
    },
  });
}
