import { z } from 'zod';
import { FEEDBACK_LIMITS, FEEDBACK_MESSAGES } from './feedback-words.js';

export { FEEDBACK_LIMITS, FEEDBACK_MESSAGES } from './feedback-words.js';

export const feedbackRequestSchema = z.object({
  text: z.string().trim().min(1, FEEDBACK_MESSAGES.empty).max(FEEDBACK_LIMITS.textLength, FEEDBACK_MESSAGES.tooLong),
  /** Where the user was (a route of the app), said in the mail. */
  page: z.string().trim().max(200).optional(),
  /** A score the user gave, 1 to 5, when the form asks for one. */
  rating: z.number().int().min(1).max(5).optional(),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

export const feedbackResponseSchema = z.object({ message: z.string() });
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;
