import { useMutation, useQuery } from '@tanstack/react-query';
import type { ApiOperation, ExplorerAnswer, ExplorerCall } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/explorer/operations: read once per visit (the server keeps the document for an hour). */
export function useOperations() {
  return useQuery({
    queryKey: ['explorer', 'operations'],
    queryFn: () => apiRequest<{ source: string; operations: ApiOperation[] }>('/api/explorer/operations'),
    staleTime: 10 * 60_000,
  });
}

/** POST /api/explorer/call: a mutation, the token is a secret and never a cache key. */
export function useCallOperation() {
  return useMutation({
    mutationFn: (call: ExplorerCall) =>
      apiRequest<ExplorerAnswer>('/api/explorer/call', { method: 'POST', body: call }),
  });
}
