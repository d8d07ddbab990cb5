import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Watch, WatchSettings } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import { WATCHES } from './watch-mutation';

/**
 * PUT /api/watches/:id: what a watch runs, when, where and when it speaks. Its card shows the answer at once (its
 * next run as the server computed it for the new schedule); a refusal is shown in the form, beside its field.
 */
export function useUpdateWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, settings }: { id: string; settings: WatchSettings }) =>
      apiRequest<Watch>(`/api/watches/${id}`, { method: 'PUT', body: settings }),
    meta: SHOWN_IN_PLACE,
    onSuccess: (changed) =>
      queryClient.setQueriesData<Watch[]>({ queryKey: [WATCHES, 'list'] }, (watches) =>
        watches?.map((watch) => (watch.id === changed.id ? changed : watch)),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [WATCHES] }),
  });
}
