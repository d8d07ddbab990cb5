import type { Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** POST /api/watches/:id/pause, or /resume: the one button that does either. */
export const usePauseOrResumeWatch = () =>
  useWatchMutation(({ id, pause }: { id: string; pause: boolean }) =>
    apiRequest<Watch>(`/api/watches/${id}/${pause ? 'pause' : 'resume'}`, { method: 'POST' }),
  );
