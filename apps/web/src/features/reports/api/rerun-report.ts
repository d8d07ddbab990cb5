import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportsQueryKey } from './reports';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/reports/:id/rerun: the same report again, with a freshly pasted token. */
export const rerunReport = ({ id, token }: { id: string; token: string }) =>
  apiRequest<ReportRequest>(`/api/reports/${id}/rerun`, { method: 'POST', body: { token } });

export function useRerunReport(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: rerunReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsQueryKey() }),
  });
}
