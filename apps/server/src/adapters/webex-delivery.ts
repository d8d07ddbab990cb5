import { createHash } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import { webexDeliveries } from '../db/schema.js';
import type { Db } from '../core/database.js';
import { fitMarkdown, type WebexClient, type WebexFile, type WebexRecipient } from './webex-client.js';

/** How a recipient is recorded: a person's email, or `room:<id>`. */
const ROOM = 'room:';
const recipientKey = (to: WebexRecipient) => (typeof to === 'string' ? to : `${ROOM}${to.roomId}`);

/** Webex's clock and ours may differ by this much when a message is looked for after a crash. */
const CLOCK_SKEW_MS = 60_000;

/** A message's hash, its line breaks as LF: a multipart upload (a message with a file) sends them as CRLF. */
const sha256 = (text: string) => createHash('sha256').update(text.replaceAll('\r\n', '\n')).digest('hex');

/**
 * Sends each message of a job once, whatever dies when: the message is recorded under a key before it is
 * sent and confirmed after. A key already confirmed is not sent again; a key recorded but not confirmed
 * (the worker died between the two) is looked for among the bot's latest direct messages to that person,
 * and sent again only when it is not there.
 */
export class WebexDeliveries {
  constructor(
    private readonly db: Db,
    private readonly webex: WebexClient,
  ) {}

  /**
   * Sends `markdown` (and its file) to `to` under `key`, unless it was sent under that key already. A job passes
   * `beforeSend` (its lease check): run right before the message goes, and again before a file's last bytes, it
   * stops a worker that lost its job (paused past its lease while another worker delivered) from sending the
   * message a second time.
   */
  async sendOnce(
    key: string,
    to: WebexRecipient,
    markdown: string,
    file?: WebexFile,
    beforeSend?: () => Promise<void>,
  ): Promise<'sent' | 'already sent'> {
    const fitted = fitMarkdown(markdown);
    const hash = sha256(fitted);
    const [recorded] = await this.db
      .insert(webexDeliveries)
      .values({ key, toEmail: recipientKey(to), markdownSha256: hash, status: 'sending' })
      .onConflictDoNothing()
      .returning({ key: webexDeliveries.key });
    if (!recorded) {
      const [row] = await this.db.select().from(webexDeliveries).where(eq(webexDeliveries.key, key));
      if (row?.status === 'sent') return 'already sent';
      if (row) {
        const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
        const found = (await this.sentTo(row.toEmail)).find(
          (message) =>
            sha256(message.markdown ?? message.text ?? '') === row.markdownSha256 &&
            Date.parse(message.created) >= since,
        );
        if (found) {
          await this.confirm(key, found.id);
          return 'already sent';
        }
      }
    }
    await beforeSend?.();
    // A file is uploaded as it is read: the check runs again before its last bytes (a worker paused mid-upload).
    const sent = await this.webex.send(to, fitted, file, beforeSend);
    await this.confirm(key, sent.id);
    return 'sent';
  }

  /** The bot's latest messages where a delivery was recorded: a person's direct space, or a room. */
  private async sentTo(recipient: string) {
    if (!recipient.startsWith(ROOM)) return this.webex.directMessages(recipient);
    // A room may not show the bot its own messages: not found there, the message is sent again.
    return this.webex.roomMessages(recipient.slice(ROOM.length)).catch(() => []);
  }

  private async confirm(key: string, messageId: string | null): Promise<void> {
    await this.db.update(webexDeliveries).set({ status: 'sent', messageId }).where(eq(webexDeliveries.key, key));
  }

  /** Retention: records older than `days`. */
  async prune(days: number): Promise<number> {
    const deleted = await this.db
      .delete(webexDeliveries)
      .where(lt(webexDeliveries.createdAt, sql`now() - ${days} * interval '1 day'`))
      .returning({ key: webexDeliveries.key });
    return deleted.length;
  }
}
