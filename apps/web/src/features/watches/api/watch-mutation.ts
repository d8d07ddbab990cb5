import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** Every query of Account Watch starts with this key: a change reads them all again. */
export const WATCHES = 'watches';

/**
 * A change to watches or waivers; every Account Watch query is read again after it. `meta` as the query client
 * reads it (`SHOWN_IN_PLACE` when the form says the refusal itself).
 */
export function useWatchMutation<T, R>(call: (input: T) => Promise<R>, meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    meta,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [WATCHES] }),
  });
}
