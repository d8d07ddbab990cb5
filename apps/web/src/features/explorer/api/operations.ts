import { useQuery } from '@tanstack/react-query';
import type { ApiOperation } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/explorer/operations: read once per visit (the server keeps the document for an hour). */
export function useOperations() {
  return useQuery({
    queryKey: ['explorer', 'operations'],
    queryFn: () => apiRequest<{ source: string; operations: ApiOperation[] }>('/api/explorer/operations'),
    staleTime: 10 * 60_000,
  });
}
