import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CaptureEntry, CaptureList } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { uploadForm } from '../../../lib/upload';

const capturesKey = ['captures'] as const;

/** A capture the server just answered with: kept as its entry, and the history pages read again. */
function remember(queryClient: QueryClient, entry: CaptureEntry) {
  queryClient.setQueryData([...capturesKey, 'entry', entry.id], entry);
  return queryClient.invalidateQueries({ queryKey: [...capturesKey, 'page'] });
}

/** GET /api/pcap: a page of the captures kept for the retention period (without their summaries). */
export function useCaptures(page: number) {
  return useQuery({
    queryKey: [...capturesKey, 'page', page],
    queryFn: () => apiRequest<CaptureList>(`/api/pcap?page=${page}`),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/pcap/{id}: one capture with its summary, when it is opened from the history. */
export function useCapture(id: string | null) {
  return useQuery({
    queryKey: [...capturesKey, 'entry', id],
    queryFn: () => apiRequest<CaptureEntry>(`/api/pcap/${id}`),
    enabled: id !== null,
  });
}

/** POST /api/pcap (multipart, with upload progress): the capture's summary. */
export function useAnalyzeCapture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (share: number) => void }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadForm<CaptureEntry>('/api/pcap', form, { onProgress });
    },
    onSuccess: (entry) => remember(queryClient, entry),
  });
}

/** POST /api/pcap/{id}/share: the summary and the file to a person in Webex, for a case. */
export function useShareCapture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; email: string; caseNumber: string }) =>
      apiRequest<CaptureEntry>(`/api/pcap/${id}/share`, { method: 'POST', body }),
    onSuccess: (entry) => remember(queryClient, entry),
  });
}

export const captureFileUrl = (id: string) => `/api/pcap/${id}/file`;
