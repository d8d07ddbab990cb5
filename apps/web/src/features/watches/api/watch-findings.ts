import { useQuery } from '@tanstack/react-query';
import type { WatchFindings } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/** GET /api/watches/:id/findings: the open findings of a watch's latest health check. */
export function useWatchFindings(watchId: string | null) {
  return useQuery({
    queryKey: [WATCHES, 'findings', watchId],
    queryFn: () => apiRequest<WatchFindings>(`/api/watches/${watchId ?? ''}/findings`),
    enabled: watchId !== null,
  });
}
