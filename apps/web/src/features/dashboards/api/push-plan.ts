import { useMutation } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type PushPlan } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { PushInput } from './push-dashboard';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/community-dashboards/{id}/push-plan: what maps and what is dropped, before deploying. */
export function usePushPlan(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: ({ id, ...body }: PushInput) =>
      apiRequest<PushPlan>(`/api/community-dashboards/${id}/push-plan`, {
        method: 'POST',
        body,
        timeoutMs: DASHBOARD_LIMITS.timeoutMs,
      }),
  });
}
