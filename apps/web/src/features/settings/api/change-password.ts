import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { mySessionsQueryKey } from './my-sessions';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** PUT /api/account/password: the user's other sessions end with it. */
export const changePassword = (input: { oldPassword: string; newPassword: string }) =>
  apiRequest<{ message: string }>('/api/account/password', { method: 'PUT', body: input });

export function useChangePassword(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mySessionsQueryKey }),
  });
}
