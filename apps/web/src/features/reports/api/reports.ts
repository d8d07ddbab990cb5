import { useQuery } from '@tanstack/react-query';
import type { ReportRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export type ReportScope = 'mine' | 'all';

/** GET /api/reports?scope=: the user's report requests (a Super User may ask for everyone's). */
export const fetchReports = async (scope: ReportScope) =>
  (await apiRequest<{ reports: ReportRequest[] }>(`/api/reports?scope=${scope}`)).reports;

export const reportsQueryKey = (scope?: ReportScope) =>
  scope ? (['reports', scope] as const) : (['reports'] as const);

const isActive = (reports: ReportRequest[] | undefined) =>
  reports?.some((report) => report.status === 'queued' || report.status === 'running');

/** The reports, refreshed every second while one is still being produced. */
export function useReports(scope: ReportScope) {
  return useQuery({
    queryKey: reportsQueryKey(scope),
    queryFn: () => fetchReports(scope),
    refetchInterval: (query) => (isActive(query.state.data) ? 1000 : false),
  });
}
