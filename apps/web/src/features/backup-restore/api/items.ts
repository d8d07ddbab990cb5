import { useQuery } from '@tanstack/react-query';
import type { BackupItems } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/backups/:id/items: what a backup holds, by kind and name. */
export function useBackupItems(id: string) {
  return useQuery({
    queryKey: ['backup-items', id],
    queryFn: () => apiRequest<BackupItems>(`/api/backups/${id}/items`),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
