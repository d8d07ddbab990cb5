import { useMutation } from '@tanstack/react-query';
import type { DiagnosticReport } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/diagnostics: a mutation, the token is a secret and never a cache key. */
export function useRunDiagnostic(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: (token: string) =>
      apiRequest<DiagnosticReport>('/api/diagnostics', { method: 'POST', body: { token } }),
  });
}
