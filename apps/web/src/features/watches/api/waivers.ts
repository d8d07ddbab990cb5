import { useQuery } from '@tanstack/react-query';
import type { Waiver } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/**
 * POST /api/watch-waivers/list: a customer's waivers in force, asked with the customer's token when the browser
 * holds one for it (the chosen or a recent customer): the server shows them only to those tied to the organization
 * (a watch over it, its token, a Super User). The token goes in the body, never in the URL nor in the query's key.
 */
export function useWaivers(organizationId: string, token: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [WATCHES, 'waivers', organizationId, token !== undefined],
    queryFn: async () =>
      (
        await apiRequest<{ waivers: Waiver[] }>('/api/watch-waivers/list', {
          method: 'POST',
          body: { organizationId, ...(token ? { token } : {}) },
        })
      ).waivers,
    enabled,
  });
}
