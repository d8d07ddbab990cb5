import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { apiRequest } from '../../../lib/api-client';
import { backupsQueryKey } from './backups';

/** DELETE /api/backups/:id: the backup and its archive (its owner, or a Super User). */
export const deleteBackup = (id: string) => apiRequest<void>(`/api/backups/${id}`, { method: 'DELETE' });

export function useDeleteBackup(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: deleteBackup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupsQueryKey() }),
  });
}
