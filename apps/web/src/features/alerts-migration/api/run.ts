import { useQuery } from '@tanstack/react-query';
import { isFinished, type MigrationRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const migrationQueryKey = (id: string | null) => ['alerts-migration', id] as const;

/** GET /api/alerts-migration/runs/:id: one migration, read every second until it has finished. */
export const fetchMigration = (id: string) => apiRequest<MigrationRun>(`/api/alerts-migration/runs/${id}`);

export function useMigration(id: string | null) {
  return useQuery({
    queryKey: migrationQueryKey(id),
    queryFn: () => fetchMigration(id ?? ''),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}

/** Where a migration's results file is downloaded from (the browser's session cookie goes along). */
export const resultsUrl = (id: string, format: 'xlsx' | 'csv') =>
  `/api/alerts-migration/runs/${id}/results?format=${format}`;
