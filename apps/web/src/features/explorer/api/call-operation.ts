import { useMutation } from '@tanstack/react-query';
import type { ExplorerAnswer, ExplorerCall } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/explorer/call: a mutation, the token is a secret and never a cache key. */
export function useCallOperation(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: (call: ExplorerCall) =>
      apiRequest<ExplorerAnswer>('/api/explorer/call', { method: 'POST', body: call }),
  });
}
