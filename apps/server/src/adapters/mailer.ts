import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: over SMTP when configured, else into the sandbox outbox. */
export interface Mailer {
  readonly available: boolean;
  send(message: MailMessage): Promise<void>;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer loads with the first message.
  let transport: Promise<Transporter> | undefined;
  return {
    available: true,
    async send(message) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (await transport).sendMail({ from, ...message });
    },
  };
}

export function outboxMailer(outbox: { deliver(message: MailMessage): unknown }): Mailer {
  return {
    available: true,
    async send(message) {
      outbox.deliver(message);
    },
  };
}

/** No SMTP and no sandbox: mail-based features say they are unavailable instead of failing silently. */
export const noMailer: Mailer = {
  available: false,
  async send() {
    throw new Error('Mail is not configured (set SMTP_URL)');
  },
};
