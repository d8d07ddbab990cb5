import type { CreateWatch, Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import { useWatchMutation } from './watch-mutation';

/** POST /api/watches: a new watch, with the customer's token and consent; its form says a refusal in place. */
export const useCreateWatch = () =>
  useWatchMutation(
    (input: CreateWatch) => apiRequest<Watch>('/api/watches', { method: 'POST', body: input }),
    SHOWN_IN_PLACE,
  );
