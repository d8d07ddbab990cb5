import { useMutation } from '@tanstack/react-query';
import type { BulkTestsList } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';

/** POST /api/bulk/tests: the tests of every chosen account group. */
export const fetchTests = ({ token, accountGroups }: Scope) =>
  post<BulkTestsList>('/api/bulk/tests', { token, accountGroups });

export const useLoadTests = () => useMutation({ mutationFn: fetchTests });
