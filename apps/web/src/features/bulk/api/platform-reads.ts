import { useMutation } from '@tanstack/react-query';
import type {
  BulkAccountGroup,
  BulkAgentsResponse,
  BulkTestsList,
  BulkTestsPlan,
  DuplicateScan,
  TestTemplate,
} from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/*
 * The reads that help the user choose, each a POST carrying the customer's token. They are mutations,
 * not cached queries: the token is a secret, never a cache key, and each click reads again.
 */

const post = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });
type Scope = { token: string; accountGroups: BulkAccountGroup[] };

/** POST /api/bulk/agents: the agents of every chosen account group. */
export const fetchAgents = ({ token, accountGroups }: Scope) =>
  post<BulkAgentsResponse>('/api/bulk/agents', { token, accountGroups });
export const useLoadAgents = () => useMutation({ mutationFn: fetchAgents });

/** POST /api/bulk/tests: the tests of every chosen account group. */
export const fetchTests = ({ token, accountGroups }: Scope) =>
  post<BulkTestsList>('/api/bulk/tests', { token, accountGroups });
export const useLoadTests = () => useMutation({ mutationFn: fetchTests });

/** POST /api/bulk/roles: the roles of the token's organization. */
export const fetchRoles = async (token: string) =>
  (await post<{ roles: { roleId: string; name: string }[] }>('/api/bulk/roles', { token })).roles;
export const useLoadRoles = () => useMutation({ mutationFn: fetchRoles });

/** POST /api/bulk/tests/plan: template x account group, create or skip or blocked. */
export const fetchPlan = ({ token, accountGroups, templates }: Scope & { templates: TestTemplate[] }) =>
  post<BulkTestsPlan>('/api/bulk/tests/plan', { token, accountGroups, templates });
export const usePlanTests = () => useMutation({ mutationFn: fetchPlan });

/** POST /api/bulk/agents/duplicates: enterprise agents sharing an address and a location. */
export const scanDuplicates = ({ token, accountGroups }: Scope) =>
  post<DuplicateScan>('/api/bulk/agents/duplicates', { token, accountGroups });
export const useScanDuplicates = () => useMutation({ mutationFn: scanDuplicates });
