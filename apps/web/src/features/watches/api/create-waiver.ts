import type { CreateWaiver, Waiver } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { useWatchMutation } from './watch-mutation';

/** POST /api/watch-waivers: a finding, or a whole check, waived with a reason until its expiry. */
export const useCreateWaiver = () =>
  useWatchMutation((input: CreateWaiver) => apiRequest<Waiver>('/api/watch-waivers', { method: 'POST', body: input }));
