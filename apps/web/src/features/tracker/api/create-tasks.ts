import { useMutation } from '@tanstack/react-query';
import { TRACKER_LIMITS, type CreateTasksRequest, type CreateTasksResponse } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/tracker/tasks: creation can take up to 3 minutes (spec section 9). */
export function useCreateTasks(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: (request: CreateTasksRequest) =>
      apiRequest<CreateTasksResponse>('/api/tracker/tasks', {
        method: 'POST',
        body: request,
        timeoutMs: TRACKER_LIMITS.createTimeoutMs,
      }),
  });
}
