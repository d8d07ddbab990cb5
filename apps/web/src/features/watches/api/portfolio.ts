import { useQuery } from '@tanstack/react-query';
import type { PortfolioEntry } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/** GET /api/watch-portfolio: my customers, every watched organization, in decline first. */
export function usePortfolio(everyone: boolean) {
  return useQuery({
    queryKey: [WATCHES, 'portfolio', everyone],
    queryFn: async () =>
      (await apiRequest<{ customers: PortfolioEntry[] }>(`/api/watch-portfolio?everyone=${String(everyone)}`))
        .customers,
  });
}
