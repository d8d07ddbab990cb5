import { useMutation } from '@tanstack/react-query';
import type { DiagnosticReport } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/diagnostics: a mutation, the token is a secret and never a cache key. */
export function useRunDiagnostic() {
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest<DiagnosticReport>('/api/diagnostics', { method: 'POST', body: { token } }),
  });
}

export function useSendDiagnostic() {
  return useMutation({
    mutationFn: ({ id, email }: { id: string; email: string }) =>
      apiRequest<void>(`/api/diagnostics/${id}/send`, { method: 'POST', body: { email } }),
  });
}

export const diagnosticDownloadUrl = (id: string, format: 'json' | 'html') =>
  `/api/diagnostics/${id}/download?format=${format}`;
