import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserInput, UserAccount } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { auditLogQueryKey } from './audit-log';
import { usersQueryKey } from './users';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/users: a new account with a temporary password, shown once. */
export const inviteUser = (input: InviteUserInput) =>
  apiRequest<{ user: UserAccount; temporaryPassword: string }>('/api/users', { method: 'POST', body: input });

export function useInviteUser(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: inviteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
      void queryClient.invalidateQueries({ queryKey: auditLogQueryKey });
    },
  });
}
