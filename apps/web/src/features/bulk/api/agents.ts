import { useMutation } from '@tanstack/react-query';
import type { BulkAgentsResponse } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/agents: the agents of every chosen account group. */
export const fetchAgents = ({ token, accountGroups }: Scope) =>
  post<BulkAgentsResponse>('/api/bulk/agents', { token, accountGroups });

export const useLoadAgents = (meta?: ErrorToastMeta) => useMutation({ mutationFn: fetchAgents, meta });
