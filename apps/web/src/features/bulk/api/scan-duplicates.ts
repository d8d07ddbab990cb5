import { useMutation } from '@tanstack/react-query';
import type { DuplicateScan } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/agents/duplicates: enterprise agents sharing an address and a location. */
export const scanDuplicates = ({ token, accountGroups }: Scope) =>
  post<DuplicateScan>('/api/bulk/agents/duplicates', { token, accountGroups });

export const useScanDuplicates = (meta?: ErrorToastMeta) => useMutation({ mutationFn: scanDuplicates, meta });
