import type { WatchRun } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** POST /api/watches/:id/runs: a run now, one at a time. */
export const useRunWatchNow = () =>
  useWatchMutation((id: string) => apiRequest<WatchRun>(`/api/watches/${id}/runs`, { method: 'POST' }));
