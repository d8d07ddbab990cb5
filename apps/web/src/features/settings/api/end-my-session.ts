import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { mySessionsQueryKey } from './my-sessions';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** DELETE /api/account/sessions/:id: signs one of the user's other devices out. */
export const endMySession = (id: string) =>
  apiRequest<{ message: string }>(`/api/account/sessions/${id}`, { method: 'DELETE' });

export function useEndMySession(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: endMySession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mySessionsQueryKey }),
  });
}
