import { useMutation } from '@tanstack/react-query';
import type { BulkTestsList } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/tests: the tests of every chosen account group. */
export const fetchTests = ({ token, accountGroups }: Scope) =>
  post<BulkTestsList>('/api/bulk/tests', { token, accountGroups });

export const useLoadTests = (meta?: ErrorToastMeta) => useMutation({ mutationFn: fetchTests, meta });
