import { useCallback, useState } from 'react';
import { BULK_MESSAGES, bulkTokenSchema, type ReportAccountGroup } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { useLoadAccountGroups } from './api/account-groups';
import { customerTokenErrors } from './error-toasts';
import { rememberToken, type TokenList } from './recent-tokens';

/**
 * A customer's token and what it sees: the account groups, and the organization picked among them. The
 * token lives in memory only (and, once it worked, in the user's recent tokens of this tool).
 */
export function useCustomer(list: TokenList) {
  const [token, setTokenState] = useState('');
  const [groups, setGroups] = useState<ReportAccountGroup[] | null>(null);
  const [organizationId, setOrganizationId] = useState('');
  const { mutateAsync, isPending } = useLoadAccountGroups(customerTokenErrors(BULK_MESSAGES.groupsFailed));

  const load = useCallback(async () => {
    const checked = bulkTokenSchema().safeParse(token);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? BULK_MESSAGES.tokenRequired);
      return;
    }
    try {
      const loaded = await mutateAsync(checked.data);
      if (loaded.length === 0) {
        toast.error(BULK_MESSAGES.noGroups);
        return;
      }
      rememberToken(list, checked.data);
      setGroups(loaded);
      setOrganizationId(loaded[0]?.organizationId ?? '');
    } catch {
      // Said by the query client's error toast (migrationErrors).
    }
  }, [list, mutateAsync, token]);

  /** A different token sees different groups: what was loaded with the old one is dropped. */
  const setToken = useCallback((next: string) => {
    setTokenState(next);
    setGroups(null);
    setOrganizationId('');
  }, []);

  const inOrganization = (groups ?? []).filter((group) => group.organizationId === organizationId);
  const organization = inOrganization[0]
    ? { id: organizationId, name: inOrganization[0].organizationName || 'N/A' }
    : null;
  return {
    list,
    token: token.trim(),
    rawToken: token,
    setToken,
    groups,
    organizationId,
    setOrganizationId,
    /** The account groups of the organization picked. */
    inOrganization,
    organization,
    loading: isPending,
    load,
  };
}

export type Customer = ReturnType<typeof useCustomer>;
