import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Backup } from '@ce/contract';
import type { ErrorToastMeta } from '../../../lib/error-toasts';
import { uploadForm } from '../../../lib/upload';
import { backupsQueryKey } from './backups';

/** POST /api/backups/upload: an archive kept as a backup, checked whole by the server. */
export const uploadBackup = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return uploadForm<Backup>('/api/backups/upload', form);
};

export function useUploadBackup(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: uploadBackup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupsQueryKey() }),
  });
}
