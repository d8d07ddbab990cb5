import { useMutation } from '@tanstack/react-query';
import type { MigrationRules, MigrationSourceRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/alerts-migration/rules: the source group's rules in words, and its suppression windows. */
export const fetchRules = (request: MigrationSourceRequest) =>
  apiRequest<MigrationRules>('/api/alerts-migration/rules', { method: 'POST', body: request });

export function useLoadRules(meta?: ErrorToastMeta) {
  return useMutation({ mutationFn: fetchRules, meta });
}
