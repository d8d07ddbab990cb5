import { useMutation } from '@tanstack/react-query';
import { TRACKER_LIMITS, type CreateTasksRequest, type CreateTasksResponse } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/tracker/tasks: creation can take up to 3 minutes (spec section 9). */
export function useCreateTasks() {
  return useMutation({
    mutationFn: (request: CreateTasksRequest) =>
      apiRequest<CreateTasksResponse>('/api/tracker/tasks', {
        method: 'POST',
        body: request,
        timeoutMs: TRACKER_LIMITS.createTimeoutMs,
      }),
  });
}
