import { useMutation, useQueryClient } from '@tanstack/react-query';

/** Every query of Account Watch starts with this key: a change reads them all again. */
export const WATCHES = 'watches';

/** A change to watches or waivers; every Account Watch query is read again after it. */
export function useWatchMutation<T, R>(call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [WATCHES] }),
  });
}
