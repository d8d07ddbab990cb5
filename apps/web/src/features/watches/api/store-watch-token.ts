import type { StoreWatchToken, Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** PUT /api/watches/:id/token: a new token with a new consent; the watch resumes. */
export const useStoreWatchToken = () =>
  useWatchMutation(({ id, ...body }: { id: string } & StoreWatchToken) =>
    apiRequest<Watch>(`/api/watches/${id}/token`, { method: 'PUT', body }),
  );
