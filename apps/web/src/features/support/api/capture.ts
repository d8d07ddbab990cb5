import { useQuery } from '@tanstack/react-query';
import type { CaptureEntry } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { capturesKey } from './capture-cache';

/** GET /api/pcap/{id}: one capture with its summary, when it is opened from the history. */
export function useCapture(id: string | null) {
  return useQuery({
    queryKey: [...capturesKey, 'entry', id],
    queryFn: () => apiRequest<CaptureEntry>(`/api/pcap/${id}`),
    enabled: id !== null,
  });
}

export const captureFileUrl = (id: string) => `/api/pcap/${id}/file`;
