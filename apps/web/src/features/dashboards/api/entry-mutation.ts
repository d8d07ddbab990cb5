import { useMutation, useQueryClient } from '@tanstack/react-query';
import { communityQueryKey } from './community-dashboards';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** Mutations on one entry; each reloads the gallery when it succeeds (the vote's new count comes from there). */
export function useEntryMutation<Input, Output>(request: (input: Input) => Promise<Output>, meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}
