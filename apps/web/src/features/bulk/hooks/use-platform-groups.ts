import { useCallback, useMemo, useState } from 'react';
import { BULK_MESSAGES, type BulkAccountGroup } from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { customerTokenErrors } from '../../../lib/error-toasts';
import type { TokenList } from '../../../lib/recent-tokens';
import { useCustomer } from '../../../lib/use-customer';

/** What a failed call of the bulk tools says: a refused token gets the bulk wizard's words and title. */
export const platformErrors = customerTokenErrors;

/**
 * Step 1 and 2 of every bulk tool: a customer's token (the kit's token-to-groups hook), the account groups
 * it sees and the ones the user picked. The token lives in memory only (and, once it worked, in the
 * recent-token list).
 */
export function usePlatformGroups(list: TokenList, minLength = 1) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [unauthorized, setUnauthorized] = useState(false);
  // Bulk tests on an account-group 401 also say so in the spec's words, titled Unauthorized (section 8).
  const onRefused = useCallback(() => {
    setUnauthorized(true);
    toast.error(BULK_MESSAGES.groupsUnauthorized, { title: BULK_MESSAGES.groupsUnauthorizedTitle });
  }, []);
  const customer = useCustomer(list, { minLength, onRefused });
  const { load: loadCustomer, setToken, clearGroups, groups } = customer;

  const load = useCallback(async (): Promise<boolean> => {
    const loaded = await loadCustomer();
    if (!loaded) return false;
    setUnauthorized(false);
    setSelected((previous) => new Set(loaded.filter((group) => previous.has(group.aid)).map((group) => group.aid)));
    return true;
  }, [loadCustomer]);

  const chosen: BulkAccountGroup[] = useMemo(
    () =>
      (groups ?? [])
        .filter((group) => selected.has(group.aid))
        .map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
    [groups, selected],
  );

  /** The organization a run is filed under: the one of the first chosen group. */
  const organization = useMemo(() => {
    const first = (groups ?? []).find((group) => selected.has(group.aid));
    return first ? { id: first.organizationId, name: first.organizationName || 'N/A' } : null;
  }, [groups, selected]);

  /** A different token sees different groups: what was loaded with the old one is dropped. */
  const changeToken = useCallback(
    (next: string) => {
      setToken(next);
      setSelected(new Set());
    },
    [setToken],
  );

  const reset = useCallback(() => changeToken(''), [changeToken]);

  /** Forget the groups and the choice (the token stays): going back from step 2 to step 1. */
  const clearLists = useCallback(() => {
    clearGroups();
    setSelected(new Set());
  }, [clearGroups]);

  return {
    token: customer.token,
    rawToken: customer.rawToken,
    setToken: changeToken,
    groups,
    selected,
    setSelected,
    chosen,
    organization,
    loading: customer.loading,
    /** The last token was refused by the platform. */
    unauthorized,
    load,
    reset,
    clearLists,
  };
}

export type PlatformGroups = ReturnType<typeof usePlatformGroups>;
