import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WatchRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/**
 * GET /api/watches/:id/runs: a watch's runs, newest first, read again every two seconds while one is under way.
 * When a run ends, the watch's findings, its customer's portfolio entry and the watch itself are read again.
 */
export function useWatchRuns(watchId: string) {
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: [WATCHES, 'runs', watchId],
    queryFn: async () => (await apiRequest<{ runs: WatchRun[] }>(`/api/watches/${watchId}/runs`)).runs,
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'queued' || run.status === 'running') ? 2000 : false,
  });
  const latestEnded = runs.data?.find((run) => run.status === 'done' || run.status === 'failed')?.id;
  useEffect(() => {
    if (latestEnded)
      void queryClient.invalidateQueries({
        // The watch's own reads, and the customer page's header and timeline, which list what the run made.
        predicate: (query) =>
          (query.queryKey[0] === WATCHES && query.queryKey[1] !== 'runs') ||
          query.queryKey[0] === 'customer-timeline' ||
          query.queryKey[0] === 'customer-overview',
      });
  }, [latestEnded, queryClient]);
  return runs;
}
