import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateReportInput, ReportAccountGroup, ReportRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const fetchAccountGroups = async (token: string) =>
  (
    await apiRequest<{ accountGroups: ReportAccountGroup[] }>('/api/account-groups', {
      method: 'POST',
      body: { token },
    })
  ).accountGroups;

export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReportInput) =>
      apiRequest<ReportRequest>('/api/reports', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reports'] }),
  });
}

const isActive = (reports: ReportRequest[] | undefined) =>
  reports?.some((report) => report.status === 'queued' || report.status === 'running');

/** The user's reports, refreshed every second while one is still being produced. */
export function useReports(scope: 'mine' | 'all') {
  return useQuery({
    queryKey: ['reports', scope],
    queryFn: async () => (await apiRequest<{ reports: ReportRequest[] }>(`/api/reports?scope=${scope}`)).reports,
    refetchInterval: (query) => (isActive(query.state.data) ? 1000 : false),
  });
}

export function useRerunReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, token }: { id: string; token: string }) =>
      apiRequest<ReportRequest>(`/api/reports/${id}/rerun`, { method: 'POST', body: { token } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reports'] }),
  });
}

export const artifactUrl = (reportId: string, artifactId: string, inline = false) =>
  `/api/reports/${reportId}/artifacts/${artifactId}${inline ? '?inline=1' : ''}`;
