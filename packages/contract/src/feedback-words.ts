// Apart from the schemas (feedback.ts): the app's shell shows these without loading the schema library.

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
