import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { LIMITS, pushBounded } from '../bounded.js';
import { escapeHtml, page } from '../html.js';

export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** The outbox the server's mailer writes to in demo mode when no SMTP server is configured (the last 1,000). */
export class MailOutbox {
  readonly messages: MailMessage[] = [];

  deliver(message: Omit<MailMessage, 'id' | 'sentAt'>): MailMessage {
    const stored = { ...message, id: randomUUID(), sentAt: new Date().toISOString() };
    pushBounded(this.messages, stored, LIMITS.mailMessages);
    return stored;
  }

  reset(): void {
    this.messages.length = 0;
  }
}

export const mailRoutes: FastifyPluginAsync<{ outbox: MailOutbox }> = async (app, { outbox }) => {
  app.get('/messages', async (request) => {
    const { to } = request.query as { to?: string };
    return { items: outbox.messages.filter((message) => !to || message.to.toLowerCase() === to.toLowerCase()) };
  });

  app.get('/', async (_request, reply) => {
    const rows = outbox.messages
      .map(
        (message) =>
          `<tr><td>${escapeHtml(message.sentAt)}</td><td>${escapeHtml(message.to)}</td><td>${escapeHtml(message.subject)}</td><td><pre>${escapeHtml(message.text)}</pre></td></tr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Mail sandbox: outbox',
          outbox.messages.length
            ? `<table><thead><tr><th>Sent</th><th>To</th><th>Subject</th><th>Text</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p>No mail sent yet.</p>',
        ),
      );
  });
};
