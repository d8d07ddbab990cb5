import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateWaiver,
  CreateWatch,
  PortfolioEntry,
  StoreWatchToken,
  Waiver,
  Watch,
  WatchFindings,
  WatchRun,
} from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** Every query of Account Watch starts with this key: a change reads them all again. */
const WATCHES = 'watches';

/** The caller's watches (every user's for a Super User who asks). */
export function useWatches(everyone = false) {
  return useQuery({
    queryKey: [WATCHES, 'list', everyone],
    queryFn: async () => (await apiRequest<{ watches: Watch[] }>(`/api/watches?everyone=${String(everyone)}`)).watches,
  });
}

/**
 * A watch's runs, newest first: read again every two seconds while one is under way. When a run ends, the watch's
 * findings, its customer's portfolio entry and the watch itself are read again.
 */
export function useWatchRuns(watchId: string) {
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: [WATCHES, 'runs', watchId],
    queryFn: async () => (await apiRequest<{ runs: WatchRun[] }>(`/api/watches/${watchId}/runs`)).runs,
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'queued' || run.status === 'running') ? 2000 : false,
  });
  const latestEnded = runs.data?.find((run) => run.status === 'done' || run.status === 'failed')?.id;
  useEffect(() => {
    if (latestEnded)
      void queryClient.invalidateQueries({
        // The watch's own reads, and the customer page's header and timeline, which list what the run made.
        predicate: (query) =>
          (query.queryKey[0] === WATCHES && query.queryKey[1] !== 'runs') ||
          query.queryKey[0] === 'customer-timeline' ||
          query.queryKey[0] === 'customer-overview',
      });
  }, [latestEnded, queryClient]);
  return runs;
}

/** The open findings of a watch's latest health check. */
export function useWatchFindings(watchId: string | null) {
  return useQuery({
    queryKey: [WATCHES, 'findings', watchId],
    queryFn: () => apiRequest<WatchFindings>(`/api/watches/${watchId ?? ''}/findings`),
    enabled: watchId !== null,
  });
}

/**
 * A customer's waivers in force, asked with the customer's token when the browser holds one for it (the chosen or a
 * recent customer): the server shows them only to those tied to the organization (a watch over it, its token, a
 * Super User). The token goes in the body, never in the URL nor in the query's key.
 */
export function useWaivers(organizationId: string, token: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [WATCHES, 'waivers', organizationId, token !== undefined],
    queryFn: async () =>
      (
        await apiRequest<{ waivers: Waiver[] }>('/api/watch-waivers/list', {
          method: 'POST',
          body: { organizationId, ...(token ? { token } : {}) },
        })
      ).waivers,
    enabled,
  });
}

/** My customers: every watched organization, in decline first. */
export function usePortfolio(everyone: boolean) {
  return useQuery({
    queryKey: [WATCHES, 'portfolio', everyone],
    queryFn: async () =>
      (await apiRequest<{ customers: PortfolioEntry[] }>(`/api/watch-portfolio?everyone=${String(everyone)}`))
        .customers,
  });
}

/** A change to watches or waivers; every Account Watch query is read again after it. */
function useWatchMutation<T, R>(call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [WATCHES] }),
  });
}

export const useCreateWatch = () =>
  useWatchMutation((input: CreateWatch) => apiRequest<Watch>('/api/watches', { method: 'POST', body: input }));
export const useRunWatchNow = () =>
  useWatchMutation((id: string) => apiRequest<WatchRun>(`/api/watches/${id}/runs`, { method: 'POST' }));
export const usePauseWatch = () =>
  useWatchMutation(({ id, pause }: { id: string; pause: boolean }) =>
    apiRequest<Watch>(`/api/watches/${id}/${pause ? 'pause' : 'resume'}`, { method: 'POST' }),
  );
export const useRevokeWatchToken = () =>
  useWatchMutation((id: string) => apiRequest<Watch>(`/api/watches/${id}/token`, { method: 'DELETE' }));
export const useStoreWatchToken = () =>
  useWatchMutation(({ id, ...body }: { id: string } & StoreWatchToken) =>
    apiRequest<Watch>(`/api/watches/${id}/token`, { method: 'PUT', body }),
  );
/**
 * Deletes a watch: its card goes at once (the lists are updated in place) and what was read of it (runs, findings)
 * is forgotten, not read again: it is gone, and asking would only be answered 404.
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
export const useCreateWaiver = () =>
  useWatchMutation((input: CreateWaiver) => apiRequest<Waiver>('/api/watch-waivers', { method: 'POST', body: input }));
/** Ends a waiver, with the customer's token when the browser holds one for its organization. */
export const useDeleteWaiver = () =>
  useWatchMutation(({ id, token }: { id: string; token?: string }) =>
    apiRequest<null>(`/api/watch-waivers/${id}`, { method: 'DELETE', ...(token ? { body: { token } } : {}) }),
  );
