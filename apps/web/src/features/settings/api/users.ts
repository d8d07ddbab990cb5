import { useQuery } from '@tanstack/react-query';
import type { UserAccount } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/users: every account (Super User). */
export const fetchUsers = async () => (await apiRequest<{ users: UserAccount[] }>('/api/users')).users;

export const usersQueryKey = ['users'] as const;

export function useUsers() {
  return useQuery({ queryKey: usersQueryKey, queryFn: fetchUsers });
}
