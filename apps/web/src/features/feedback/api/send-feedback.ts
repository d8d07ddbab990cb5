import { useMutation } from '@tanstack/react-query';
import type { FeedbackRequest, FeedbackResponse } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';

/** Feedback to the team that runs the toolkit; the dialog shows a failure in place. */
export function useSendFeedback() {
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (feedback: FeedbackRequest) =>
      apiRequest<FeedbackResponse>('/api/feedback', { method: 'POST', body: feedback }),
  });
}
