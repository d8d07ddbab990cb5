import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, UserAccount } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { auditLogQueryKey } from './audit-log';
import { usersQueryKey } from './users';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** PATCH /api/users/:id: a new role, or disabled / enabled. */
export const updateUser = ({ id, ...changes }: UpdateUserInput & { id: string }) =>
  apiRequest<{ user: UserAccount }>(`/api/users/${id}`, { method: 'PATCH', body: changes });

export function useUpdateUser(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: updateUser,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
      void queryClient.invalidateQueries({ queryKey: auditLogQueryKey });
    },
  });
}
