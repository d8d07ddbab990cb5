import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

export function useSendDiagnostic(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: ({ id, email }: { id: string; email: string }) =>
      apiRequest<void>(`/api/diagnostics/${id}/send`, { method: 'POST', body: { email } }),
  });
}

export const diagnosticDownloadUrl = (id: string, format: 'json' | 'html') =>
  `/api/diagnostics/${id}/download?format=${format}`;
