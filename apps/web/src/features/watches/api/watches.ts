import { useQuery } from '@tanstack/react-query';
import type { Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/** GET /api/watches: the caller's watches (every user's for a Super User who asks). */
export function useWatches(everyone = false) {
  return useQuery({
    queryKey: [WATCHES, 'list', everyone],
    queryFn: async () => (await apiRequest<{ watches: Watch[] }>(`/api/watches?everyone=${String(everyone)}`)).watches,
  });
}
