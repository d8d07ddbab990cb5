import { FEEDBACK_LIMITS, FEEDBACK_MESSAGES, type FeedbackRequest, type SessionUser } from '@ce/contract';
import type { Mailer } from '../../adapters/mailer.js';
import type { SharedThrottle } from '../../core/shared-throttle.js';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';

const HOUR_MS = 3_600_000;

/**
 * Feedback from a user to the team that runs the toolkit: mailed to the support address (SUPPORT_EMAIL), a
 * line in the audit log that it was sent (not its words), at most FEEDBACK_LIMITS.perHour per user per hour
 * on every instance.
 */
export class FeedbackService {
  constructor(
    private readonly deps: {
      mailer: Mailer;
      audit: AuditLog;
      throttle: Pick<SharedThrottle, 'increment'>;
      supportEmail: string;
    },
  ) {}

  async send(user: SessionUser, feedback: FeedbackRequest): Promise<{ message: string }> {
    if (!this.deps.mailer.available) throw new AppError(503, 'mail_unavailable', FEEDBACK_MESSAGES.noMail);
    const { current } = await this.deps.throttle.increment(`feedback:${user.id}`, HOUR_MS);
    if (current > FEEDBACK_LIMITS.perHour) throw new AppError(429, 'too_many_feedback', FEEDBACK_MESSAGES.tooMany);
    const from = user.name ? `${user.name} <${user.email}>` : user.email;
    const lines = [
      `From: ${from} (${user.role})`,
      ...(feedback.page ? [`Page: ${feedback.page}`] : []),
      ...(feedback.rating ? [`Rating: ${feedback.rating} of 5`] : []),
      ...(user.apiToken ? [`Sent by a script through the API token "${user.apiToken.name}"`] : []),
      '',
      feedback.text,
    ];
    await this.deps.mailer.send({
      to: this.deps.supportEmail,
      subject: `CE Toolkit feedback from ${user.email}`,
      text: `${lines.join('\n')}\n`,
    });
    await this.deps.audit.record(user, 'feedback.sent', null, {
      characters: feedback.text.length,
      ...(feedback.page ? { page: feedback.page } : {}),
    });
    return { message: FEEDBACK_MESSAGES.sent };
  }
}
