import { useCallback, useState } from 'react';
import { BULK_MESSAGES, bulkTokenSchema, type ReportAccountGroup } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { ApiRequestError } from './api-client';
import { customerTokenErrors } from './error-toasts';
import { rememberToken, type TokenList } from './recent-tokens';
import { useTokenGroups } from './use-token-groups';

export interface CustomerOptions {
  /** The shortest token the tool accepts (the agents wizard's is longer). */
  minLength?: number;
  /** The platform refused the token (401): the bulk tools say so in the spec's words. */
  onRefused?: () => void;
}

/**
 * A customer's token and what it sees: the account groups, and the organization picked among them. The
 * token lives in memory only (and, once it worked, in the user's recent tokens of this tool).
 */
export function useCustomer(list: TokenList, { minLength = 1, onRefused }: CustomerOptions = {}) {
  const [token, setTokenState] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const tokenGroups = useTokenGroups(customerTokenErrors(BULK_MESSAGES.groupsFailed));
  const { load: loadGroups, clear, inOrganization: groupsOf } = tokenGroups;

  /** Reads the groups of the token; null (and a toast) when the token is not right or sees none. */
  const load = useCallback(async (): Promise<ReportAccountGroup[] | null> => {
    const checked = bulkTokenSchema(minLength).safeParse(token);
    if (!checked.success) {
      toast.error(checked.error.issues[0]?.message ?? BULK_MESSAGES.tokenRequired);
      return null;
    }
    try {
      const loaded = await loadGroups(checked.data);
      if (loaded.length === 0) {
        toast.error(BULK_MESSAGES.noGroups);
        clear();
        return null;
      }
      rememberToken(list, checked.data);
      setOrganizationId(loaded[0]?.organizationId ?? '');
      return loaded;
    } catch (error) {
      // Said by the query client's error toast (customerTokenErrors); a refusal as the tool asks.
      if (error instanceof ApiRequestError && error.status === 401) onRefused?.();
      return null;
    }
  }, [clear, list, loadGroups, minLength, onRefused, token]);

  /** A different token sees different groups: what was loaded with the old one is dropped. */
  const setToken = useCallback(
    (next: string) => {
      setTokenState(next);
      clear();
      setOrganizationId('');
    },
    [clear],
  );

  const inOrganization = groupsOf(organizationId);
  const organization = inOrganization[0]
    ? { id: organizationId, name: inOrganization[0].organizationName || 'N/A' }
    : null;
  return {
    list,
    token: token.trim(),
    rawToken: token,
    setToken,
    groups: tokenGroups.groups,
    /** Forget the groups (the token stays). */
    clearGroups: clear,
    organizations: tokenGroups.organizations,
    organizationId,
    setOrganizationId,
    /** The account groups of the organization picked. */
    inOrganization,
    organization,
    loading: tokenGroups.loading,
    load,
  };
}

export type Customer = ReturnType<typeof useCustomer>;
