import { type QueryClient } from '@tanstack/react-query';
import type { CaptureEntry } from '@ce/contract';

export const capturesKey = ['captures'] as const;

/** A capture the server just answered with: kept as its entry, and the history pages read again. */
export function remember(queryClient: QueryClient, entry: CaptureEntry) {
  queryClient.setQueryData([...capturesKey, 'entry', entry.id], entry);
  return queryClient.invalidateQueries({ queryKey: [...capturesKey, 'page'] });
}
