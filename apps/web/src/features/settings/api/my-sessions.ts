import { useQuery } from '@tanstack/react-query';
import type { AccountSession } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/account/sessions: the signed-in user's sessions, this one marked. */
export const fetchMySessions = async () =>
  (await apiRequest<{ sessions: AccountSession[] }>('/api/account/sessions')).sessions;

export const mySessionsQueryKey = ['account', 'sessions'] as const;

export function useMySessions() {
  return useQuery({ queryKey: mySessionsQueryKey, queryFn: fetchMySessions });
}
