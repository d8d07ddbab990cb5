import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaptureEntry } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { remember } from './capture-cache';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/pcap/{id}/share: the summary and the file to a person in Webex, for a case. */
export function useShareCapture(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: ({ id, ...body }: { id: string; email: string; caseNumber: string }) =>
      apiRequest<CaptureEntry>(`/api/pcap/${id}/share`, { method: 'POST', body }),
    onSuccess: (entry) => remember(queryClient, entry),
  });
}
