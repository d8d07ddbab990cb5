import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomerTimeline, TimelineTool } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** What a customer's page shows: whose work, of which tool, how far back. */
export interface TimelineFilters {
  everyone: boolean;
  tool: TimelineTool | '';
  person: string;
  days: number;
}

/** GET /api/customers/{organization}/timeline: read again every five seconds while something is under way. */
export function useCustomerTimeline(organizationId: string, filters: TimelineFilters) {
  const params = new URLSearchParams({ everyone: String(filters.everyone), days: String(filters.days) });
  if (filters.tool) params.set('tool', filters.tool);
  if (filters.everyone && filters.person) params.set('person', filters.person);
  return useQuery({
    queryKey: ['customer-timeline', organizationId, filters],
    queryFn: () =>
      apiRequest<CustomerTimeline>(
        `/api/customers/${encodeURIComponent(organizationId)}/timeline?${params.toString()}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.entries.some((entry) => ['queued', 'running', 'sending'].includes(entry.status)) ? 5000 : false,
  });
}
