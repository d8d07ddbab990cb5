import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  isFinished,
  type BulkAccountGroup,
  type BulkAgentsResponse,
  type BulkRun,
  type BulkRunSummary,
  type BulkTestsList,
  type BulkTestsPlan,
  type CreateBulkRunInput,
  type DuplicateScan,
  type ReportAccountGroup,
  type TestTemplate,
} from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

const post = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });

export const bulkApi = {
  accountGroups: async (token: string) =>
    (await post<{ accountGroups: ReportAccountGroup[] }>('/api/account-groups', { token })).accountGroups,
  agents: (token: string, accountGroups: BulkAccountGroup[]) =>
    post<BulkAgentsResponse>('/api/bulk/agents', { token, accountGroups }),
  tests: (token: string, accountGroups: BulkAccountGroup[]) =>
    post<BulkTestsList>('/api/bulk/tests', { token, accountGroups }),
  roles: (token: string) => post<{ roles: { roleId: string; name: string }[] }>('/api/bulk/roles', { token }),
  plan: (token: string, accountGroups: BulkAccountGroup[], templates: TestTemplate[]) =>
    post<BulkTestsPlan>('/api/bulk/tests/plan', { token, accountGroups, templates }),
  duplicates: (token: string, accountGroups: BulkAccountGroup[]) =>
    post<DuplicateScan>('/api/bulk/agents/duplicates', { token, accountGroups }),
};

export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateBulkRunInput) => post<BulkRun>('/api/bulk/runs', input),
    onSuccess: (run) => {
      queryClient.setQueryData(['bulk-run', run.id], run);
      return queryClient.invalidateQueries({ queryKey: ['bulk-runs'] });
    },
  });
}

export function useUndoRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, token }: { id: string; token: string }) => post<BulkRun>(`/api/bulk/runs/${id}/undo`, { token }),
    onSuccess: async (run) => {
      queryClient.setQueryData(['bulk-run', run.id], run);
      await queryClient.invalidateQueries({ queryKey: ['bulk-run'] });
      await queryClient.invalidateQueries({ queryKey: ['bulk-runs'] });
    },
  });
}

/** One run, read every second until it has finished: live progress, also after a page reload. */
export function useBulkRun(id: string | null) {
  return useQuery({
    queryKey: ['bulk-run', id],
    queryFn: () => apiRequest<BulkRun>(`/api/bulk/runs/${id}`),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}

export function useBulkRuns(view: 'tests' | 'agents' | 'labels' | 'users') {
  return useQuery({
    queryKey: ['bulk-runs', view],
    queryFn: async () => (await apiRequest<{ runs: BulkRunSummary[] }>(`/api/bulk/runs?view=${view}`)).runs,
    staleTime: 0,
    // While one of them is still going, its line follows it.
    refetchInterval: (query) => (query.state.data?.some((run) => !isFinished(run)) ? 2000 : false),
  });
}
