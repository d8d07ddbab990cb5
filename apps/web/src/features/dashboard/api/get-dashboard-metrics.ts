import { useQuery } from '@tanstack/react-query';
import type { DashboardMetrics } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const getDashboardMetrics = () => apiRequest<DashboardMetrics>('/api/dashboard/metrics');

/** All counters in one request, so they load together; a failure leaves every counter at zero. */
export function useDashboardMetrics() {
  return useQuery({ queryKey: ['dashboard-metrics'], queryFn: getDashboardMetrics, retry: false });
}
