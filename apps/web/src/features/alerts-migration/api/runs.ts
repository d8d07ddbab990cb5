import { useQuery } from '@tanstack/react-query';
import type { MigrationRunSummary } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const migrationsQueryKey = () => ['alerts-migrations'] as const;

/** GET /api/alerts-migration/runs: the user's recent migrations and undos. */
export const fetchMigrations = async () =>
  (await apiRequest<{ runs: MigrationRunSummary[] }>('/api/alerts-migration/runs')).runs;

export function useMigrations() {
  return useQuery({ queryKey: migrationsQueryKey(), queryFn: fetchMigrations });
}
