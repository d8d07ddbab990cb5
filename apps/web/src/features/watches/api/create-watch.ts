import type { CreateWatch, Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** POST /api/watches: a new watch, with the customer's token and consent. */
export const useCreateWatch = () =>
  useWatchMutation((input: CreateWatch) => apiRequest<Watch>('/api/watches', { method: 'POST', body: input }));
