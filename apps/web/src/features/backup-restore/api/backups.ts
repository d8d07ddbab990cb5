import { useQuery } from '@tanstack/react-query';
import type { Backup } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export interface BackupListQuery {
  search: string;
  sort: 'createdAt' | 'accountGroupName' | 'organizationName' | 'items' | 'size';
  direction: 'asc' | 'desc';
}

export const backupsQueryKey = (query?: BackupListQuery) =>
  query ? (['backups', query] as const) : (['backups'] as const);

/** GET /api/backups: searched and sorted on the server; read again every two seconds while one is running. */
export const fetchBackups = async (query: BackupListQuery) =>
  (
    await apiRequest<{ backups: Backup[] }>(
      `/api/backups?${new URLSearchParams({ ...(query.search ? { search: query.search } : {}), sort: query.sort, direction: query.direction }).toString()}`,
    )
  ).backups;

export function useBackups(query: BackupListQuery) {
  return useQuery({
    queryKey: backupsQueryKey(query),
    queryFn: () => fetchBackups(query),
    refetchInterval: (state) =>
      state.state.data?.some((backup) => backup.status === 'queued' || backup.status === 'running') ? 2000 : false,
  });
}

/** Where a backup's archive is downloaded from (the session cookie goes along). */
export const archiveUrl = (id: string) => `/api/backups/${id}/archive`;
