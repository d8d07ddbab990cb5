import { useMutation } from '@tanstack/react-query';
import type { ReportAccountGroup } from '@ce/contract';
import { apiRequest } from '../api-client';
import type { ErrorToastMeta } from '../error-toasts';

/** POST /api/account-groups: what a customer's token sees. The token is sent once and kept nowhere. */
export const fetchAccountGroups = async (token: string): Promise<ReportAccountGroup[]> =>
  (
    await apiRequest<{ accountGroups: ReportAccountGroup[] }>('/api/account-groups', {
      method: 'POST',
      body: { token },
    })
  ).accountGroups;

/**
 * Every tool's first step. A mutation, not a cached query: the token is a secret, never a cache key,
 * and each Next reads again.
 */
export function useLoadAccountGroups(meta?: ErrorToastMeta) {
  return useMutation({ mutationFn: fetchAccountGroups, meta });
}

/** The organizations among a token's account groups, once each, as select options. */
export function organizationsOf(groups: ReportAccountGroup[]): { value: string; label: string }[] {
  const byId = new Map(groups.map((group) => [group.organizationId, group.organizationName]));
  return [...byId].map(([value, label]) => ({ value, label }));
}
