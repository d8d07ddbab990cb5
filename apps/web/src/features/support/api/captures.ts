import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaptureEntry } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { uploadForm } from '../../../lib/upload';

const capturesKey = ['captures'] as const;

/** GET /api/pcap: the captures kept for the retention period. */
export function useCaptures() {
  return useQuery({
    queryKey: capturesKey,
    queryFn: async () => (await apiRequest<{ captures: CaptureEntry[] }>('/api/pcap')).captures,
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capturesKey }),
  });
}

/** POST /api/pcap/{id}/share: the summary and the file to a person in Webex, for a case. */
export function useShareCapture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; email: string; caseNumber: string }) =>
      apiRequest<CaptureEntry>(`/api/pcap/${id}/share`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capturesKey }),
  });
}

export const captureFileUrl = (id: string) => `/api/pcap/${id}/file`;
