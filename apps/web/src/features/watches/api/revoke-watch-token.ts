import type { Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** DELETE /api/watches/:id/token: the stored token erased now; the watch pauses. */
export const useRevokeWatchToken = () =>
  useWatchMutation((id: string) => apiRequest<Watch>(`/api/watches/${id}/token`, { method: 'DELETE' }));
