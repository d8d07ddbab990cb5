import { useMutation } from '@tanstack/react-query';
import type { MigrationPlan, MigrationRequest } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/alerts-migration/plan: what the migration would do; the server writes nothing. */
export const fetchPlan = (request: MigrationRequest) =>
  apiRequest<MigrationPlan>('/api/alerts-migration/plan', { method: 'POST', body: request });

export function usePlanMigration(meta?: ErrorToastMeta) {
  return useMutation({ mutationFn: fetchPlan, meta });
}
