import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Watch } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { WATCHES } from './watch-mutation';

/**
 * DELETE /api/watches/:id: its card goes at once (the lists are updated in place) and what was read of it (runs,
 * findings) is forgotten, not read again: it is gone, and asking would only be answered 404.
 */
export function useDeleteWatch() {
  const queryClient = useQueryClient();
  const ofWatch = (id: string) => (query: { queryKey: readonly unknown[] }) =>
    query.queryKey[0] === WATCHES && query.queryKey.includes(id);
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>(`/api/watches/${id}`, { method: 'DELETE' }),
    onSuccess: async (_answer, id) => {
      await queryClient.cancelQueries({ predicate: ofWatch(id) });
      queryClient.setQueriesData<Watch[]>({ queryKey: [WATCHES, 'list'] }, (watches) =>
        watches?.filter((watch) => watch.id !== id),
      );
      queryClient.removeQueries({ predicate: ofWatch(id) });
    },
    onSettled: (_answer, _error, id) =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === WATCHES && !ofWatch(id)(query) }),
  });
}
