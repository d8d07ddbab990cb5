import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomerMeasurements } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /api/customers/{organization}/measurements: what the watches' runs over the customer measured, oldest first,
 * over the page's period and of the page's "whose" (the caller's watches, or everyone's).
 */
export function useCustomerMeasurements(organizationId: string, filters: { days: number; everyone: boolean }) {
  const params = new URLSearchParams({ days: String(filters.days), everyone: String(filters.everyone) });
  return useQuery({
    queryKey: ['customer-measurements', organizationId, filters],
    queryFn: () =>
      apiRequest<CustomerMeasurements>(
        `/api/customers/${encodeURIComponent(organizationId)}/measurements?${params.toString()}`,
      ),
    placeholderData: keepPreviousData,
  });
}
