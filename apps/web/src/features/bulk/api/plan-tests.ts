import { useMutation } from '@tanstack/react-query';
import type { BulkTestsPlan, TestTemplate } from '@ce/contract';
import type { Scope } from './platform-call';
import { post } from './platform-call';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/tests/plan: template x account group, create or skip or blocked. */
export const fetchPlan = ({ token, accountGroups, templates }: Scope & { templates: TestTemplate[] }) =>
  post<BulkTestsPlan>('/api/bulk/tests/plan', { token, accountGroups, templates });

export const usePlanTests = (meta?: ErrorToastMeta) => useMutation({ mutationFn: fetchPlan, meta });
