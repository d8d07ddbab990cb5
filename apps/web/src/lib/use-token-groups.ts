import { useCallback, useMemo, useRef, useState } from 'react';
import type { ReportAccountGroup } from '@ce/contract';
import { fetchAccountGroups, organizationsOf, useLoadAccountGroups } from './api/account-groups';
import { ApiRequestError } from './api-client';
import { chosenCustomerGroups } from './customer';
import type { ErrorToastMeta } from './error-toasts';

/** The organization to choose for the user when a token sees only one ('' when it sees several or none). */
export function soleOrganization(groups: readonly ReportAccountGroup[]): string {
  const organizations = new Set(groups.map((group) => group.organizationId));
  return organizations.size === 1 ? (groups[0]?.organizationId ?? '') : '';
}

/**
 * What a customer's token sees, for every tool's token step (bulk, alerts migration, backup & restore,
 * reports, dashboards): its account groups (null until a token was read), the organizations among them,
 * and the groups of one organization. `load` reads them again on each call (the token is a secret, never a
 * cache key; the chosen customer's token excepted, whose groups the switcher read) and rejects when the token is
 * refused, leaving no groups; each tool keeps its own words
 * through `meta` (the query client's error toast) and what it does with the answer.
 */
export function useTokenGroups(meta?: ErrorToastMeta) {
  const [groups, setGroups] = useState<ReportAccountGroup[] | null>(null);
  const { mutateAsync, isPending } = useLoadAccountGroups(meta);
  /** The token of the newest load: a check of an older one that ends later changes nothing. */
  const newest = useRef('');

  const load = useCallback(
    async (token: string): Promise<ReportAccountGroup[]> => {
      // The chosen customer's token was checked when it was chosen: its groups are known, and the tool goes on at
      // once. The platform is still asked, unwaited, so a token revoked since leaves as in any tool (decision 0030).
      newest.current = token;
      const known = chosenCustomerGroups(token);
      if (known) {
        setGroups(known);
        fetchAccountGroups(token).catch((error: unknown) => {
          if (error instanceof ApiRequestError && error.status === 401 && newest.current === token) setGroups(null);
        });
        return known;
      }
      try {
        const loaded = await mutateAsync(token);
        setGroups(loaded);
        return loaded;
      } catch (error) {
        setGroups(null);
        throw error;
      }
    },
    [mutateAsync],
  );

  /** A different token sees different groups: what was read with the old one is dropped. */
  const clear = useCallback(() => setGroups(null), []);

  const organizations = useMemo(() => organizationsOf(groups ?? []), [groups]);
  const inOrganization = useCallback(
    (organizationId: string) => (groups ?? []).filter((group) => group.organizationId === organizationId),
    [groups],
  );

  return { groups, organizations, inOrganization, loading: isPending, load, clear };
}

export type TokenGroups = ReturnType<typeof useTokenGroups>;
