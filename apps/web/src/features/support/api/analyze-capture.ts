import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaptureEntry } from '@ce/contract';
import { uploadForm } from '../../../lib/upload';
import { remember } from './capture-cache';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/pcap (multipart, with upload progress): the capture's summary. */
export function useAnalyzeCapture(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (share: number) => void }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadForm<CaptureEntry>('/api/pcap', form, { onProgress });
    },
    onSuccess: (entry) => remember(queryClient, entry),
  });
}
