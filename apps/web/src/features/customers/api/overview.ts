import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerOverview } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { TimelineFilters } from './timeline';

/** Its header and "needs attention" read with the page: a waiver made from there reads them again. */
export const OVERVIEW_KEY = 'customer-overview';

/** GET /api/customers/{organization}/overview: the same filters as the timeline, so its counts are the timeline's. */
export function useCustomerOverview(organizationId: string, filters: Omit<TimelineFilters, 'tool'>) {
  const params = new URLSearchParams({ everyone: String(filters.everyone), days: String(filters.days) });
  if (filters.everyone && filters.person) params.set('person', filters.person);
  return useQuery({
    queryKey: [OVERVIEW_KEY, organizationId, filters],
    queryFn: () =>
      apiRequest<CustomerOverview>(
        `/api/customers/${encodeURIComponent(organizationId)}/overview?${params.toString()}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Links a time-tracker engagement to the customer, once. */
export function useLinkEngagement(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (engagementId: string) =>
      apiRequest(`/api/customers/${encodeURIComponent(organizationId)}/engagements`, {
        method: 'POST',
        body: { engagementId },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [OVERVIEW_KEY, organizationId] }),
  });
}
