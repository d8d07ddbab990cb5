import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CaptureList } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { capturesKey } from './capture-cache';

/** GET /api/pcap: a page of the captures kept for the retention period (without their summaries). */
export function useCaptures(page: number) {
  return useQuery({
    queryKey: [...capturesKey, 'page', page],
    queryFn: () => apiRequest<CaptureList>(`/api/pcap?page=${page}`),
    placeholderData: keepPreviousData,
  });
}
