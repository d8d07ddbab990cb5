import { useMutation } from '@tanstack/react-query';
import type { DuplicateScan } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';

/** POST /api/bulk/agents/duplicates: enterprise agents sharing an address and a location. */
export const scanDuplicates = ({ token, accountGroups }: Scope) =>
  post<DuplicateScan>('/api/bulk/agents/duplicates', { token, accountGroups });

export const useScanDuplicates = () => useMutation({ mutationFn: scanDuplicates });
