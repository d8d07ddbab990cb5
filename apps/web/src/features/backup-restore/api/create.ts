import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Backup, CreateBackups } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { backupsQueryKey } from './backups';

/** POST /api/backups: one backup per account group, made by the server. */
export const createBackups = (request: CreateBackups) =>
  apiRequest<{ backups: Backup[] }>('/api/backups', { method: 'POST', body: request });

export function useCreateBackups(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: createBackups,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupsQueryKey() }),
  });
}
