import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateReportInput, ReportRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportsQueryKey } from './reports';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/reports: a report is requested; My Reports refreshes. */
export const createReport = (input: CreateReportInput) =>
  apiRequest<ReportRequest>('/api/reports', { method: 'POST', body: input });

export function useCreateReport(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: createReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsQueryKey() }),
  });
}
