import { z } from 'zod';

/** Feedback a user sends the team that runs the toolkit: mailed to the support address and kept in the audit log. */
export const FEEDBACK_LIMITS = {
  /** The longest feedback taken, in characters. */
  textLength: 5000,
  /** Feedback per user per hour: a script that loops cannot fill the team's mailbox. */
  perHour: 10,
} as const;

export const FEEDBACK_MESSAGES = {
  empty: 'Write your feedback first.',
  tooLong: `Feedback is at most ${FEEDBACK_LIMITS.textLength} characters.`,
  sent: 'Thank you: your feedback was sent to the team.',
  tooMany: 'You have sent a lot of feedback this hour: please try again later.',
  noMail: 'Feedback cannot be sent: mail is not configured on this installation (SMTP_URL).',
} as const;

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
