import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { mySessionsQueryKey } from './my-sessions';

/** PUT /api/account/password: the user's other sessions end with it. */
export const changePassword = (input: { oldPassword: string; newPassword: string }) =>
  apiRequest<{ message: string }>('/api/account/password', { method: 'PUT', body: input });

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mySessionsQueryKey }),
  });
}
