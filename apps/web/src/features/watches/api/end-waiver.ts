import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** DELETE /api/watch-waivers/:id: ends a waiver, with the customer's token when the browser holds one for it. */
export const useEndWaiver = () =>
  useWatchMutation(({ id, token }: { id: string; token?: string }) =>
    apiRequest<null>(`/api/watch-waivers/${id}`, { method: 'DELETE', ...(token ? { body: { token } } : {}) }),
  );
