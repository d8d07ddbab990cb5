import { useCallback, useMemo, useState } from 'react';
import { BULK_MESSAGES, bulkTokenSchema, type BulkAccountGroup, type ReportAccountGroup } from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { useLoadAccountGroups } from '../../../lib/api/account-groups';
import { ApiRequestError } from '../../../lib/api-client';
import { customerTokenErrors } from '../../../lib/error-toasts';
import { rememberToken, type TokenList } from '../../../lib/recent-tokens';

const refusedToken = (error: unknown) => error instanceof ApiRequestError && error.status === 401;

/** What a failed call of the bulk tools says: a refused token gets the bulk wizard's words and title. */
export const platformErrors = customerTokenErrors;

/**
 * Step 1 and 2 of every bulk tool: a customer's token, the account groups it sees and the ones the
 * user picked. The token lives in memory only (and, once it worked, in the recent-token list).
 */
export function usePlatformGroups(list: TokenList, minLength = 1) {
  const [token, setToken] = useState('');
  const [groups, setGroups] = useState<ReportAccountGroup[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [unauthorized, setUnauthorized] = useState(false);
  const { mutateAsync: loadAccountGroups, isPending: loading } = useLoadAccountGroups(
    platformErrors(BULK_MESSAGES.groupsFailed),
  );

  const load = useCallback(async (): Promise<boolean> => {
    const checked = bulkTokenSchema(minLength).safeParse(token);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? BULK_MESSAGES.tokenRequired);
      return false;
    }
    const trimmed = checked.data;
    try {
      const loaded = await loadAccountGroups(trimmed);
      setUnauthorized(false);
      if (loaded.length === 0) {
        toast.error(BULK_MESSAGES.noGroups);
        return false;
      }
      rememberToken(list, trimmed);
      setGroups(loaded);
      setSelected((previous) => new Set(loaded.filter((group) => previous.has(group.aid)).map((group) => group.aid)));
      return true;
    } catch (error) {
      // The failure's toast is raised by the query client (platformErrors); bulk tests on an account-group 401 also say so in the spec's words, titled Unauthorized (section 8).
      if (refusedToken(error)) {
        setUnauthorized(true);
        toast.error(BULK_MESSAGES.groupsUnauthorized, { title: BULK_MESSAGES.groupsUnauthorizedTitle });
      }
      return false;
    }
  }, [list, loadAccountGroups, minLength, token]);

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
  const changeToken = useCallback((next: string) => {
    setToken(next);
    setGroups(null);
    setSelected(new Set());
  }, []);

  const reset = useCallback(() => {
    setToken('');
    setGroups(null);
    setSelected(new Set());
  }, []);

  /** Forget the groups and the choice (the token stays): going back from step 2 to step 1. */
  const clearLists = useCallback(() => {
    setGroups(null);
    setSelected(new Set());
  }, []);

  return {
    token: token.trim(),
    rawToken: token,
    setToken: changeToken,
    groups,
    selected,
    setSelected,
    chosen,
    organization,
    loading,
    /** The last token was refused by the platform. */
    unauthorized,
    load,
    reset,
    clearLists,
  };
}

export type PlatformGroups = ReturnType<typeof usePlatformGroups>;
