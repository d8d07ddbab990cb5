import { useMutation, useQueryClient } from '@tanstack/react-query';
import { communityQueryKey } from './community-dashboards';

/** Mutations on one entry; each reloads the gallery when it succeeds (the vote's new count comes from there). */
export function useEntryMutation<Input, Output>(request: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}
