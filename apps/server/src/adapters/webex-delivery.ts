import { and, asc, desc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SessionUser, WorkNotification } from '@ce/contract';
import {
  DEFAULT_DELIVERY_RETRY,
  recipientKey,
  recipientOf,
  ROOM,
  sha256,
  deliveryState,
  givenUpNotifications,
  isTransient,
  type DeliveryOf,
  type DeliveryResult,
  type DeliveryRetry,
  type SubjectDelivery,
} from './webex-delivery-words.js';
import { webexDeliveries } from '../db/schema.js';
import { recordable, retriable } from './webex-delivery-rows.js';
export type { DeliveryNotice, DeliveryOf, DeliveryResult, SubjectDelivery } from './webex-delivery-words.js';
import type { Db } from '../core/database.js';
import { EVERY_MINUTE, periodicJob, queuedJob, type Job } from '../core/jobs.js';
import type { JobQueue } from '../core/queue.js';
import { fitMarkdown, WebexError, type WebexClient, type WebexFile, type WebexRecipient } from './webex-client.js';

/** Webex's clock and ours may differ by this much when a message is looked for after a crash. */
const CLOCK_SKEW_MS = 60_000;
/**
 * How long a retry's claim on a message lasts: longer than one send may take (a minute's timeout, and 429s waited
 * out); past it, the sender died and another takes the message over (looking for it in Webex first).
 */
const RETRY_CLAIM_MS = 5 * 60_000;
/** Subjects the periodic retry takes on at once. */
const RETRY_BATCH = 100;
export const DELIVERY_QUEUE = 'webex.deliver';

type Row = typeof webexDeliveries.$inferSelect;
/** A message this caller holds: `fresh` when recorded just now (never sent), else to look for first. */
interface Held {
  row: Row;
  fresh: boolean;
}

/**
 * Every message the product sends, once per key, whatever dies when (issue 56): the message is recorded (with what it
 * says and its file) under a key before it is sent, and confirmed after. A key already confirmed is not sent again;
 * a key recorded but not confirmed (its sender died between the two) is looked for among the bot's latest messages
 * there, and sent again only when it is not there. Webex fences no sender: one stopped (a paused process) between
 * its last check and its request reaching Webex sends once it runs again, maybe after another took the key over and
 * sent it; its answer then finds another message recorded under the key, and it deletes its own. A message Webex
 * did not take waits and is tried again with a back-off by whichever instance's retry finds it due (a queued retry
 * at its time, and a sweep every minute), until it is sent or given up; its subject (the run) is told either way.
 */
export class WebexDeliveries {
  private readonly retry: DeliveryRetry;
  private readonly told = new Map<string, (id: string, state: SubjectDelivery) => Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly webex: WebexClient,
    private readonly options: {
      retry?: DeliveryRetry;
      queue?: JobQueue;
      logger?: { warn(object: object, message: string): void };
    } = {},
  ) {
    this.retry = options.retry ?? DEFAULT_DELIVERY_RETRY;
  }

  /** Told when the retries end a subject's messages (`report` for `report:<id>`...): the run's page says it. */
  onEnd(kind: string, tell: (id: string, state: SubjectDelivery) => Promise<void>): void {
    this.told.set(kind, tell);
  }

  /**
   * Sends `markdown` (and its file) to `to` under `key`, unless it was sent under that key already; answers 'sent' or
   * 'already sent', and throws what stopped it. Kept for callers that tell the failure themselves, at once.
   */
  async sendOnce(
    key: string,
    to: WebexRecipient,
    markdown: string,
    file?: WebexFile,
    beforeSend?: () => Promise<void>,
  ): Promise<'sent' | 'already sent'> {
    const fitted = fitMarkdown(markdown);
    const taken = await this.record(key, to, fitted, undefined, { subject: key });
    if (taken === 'already sent') return taken;
    if (typeof taken === 'string') throw new WebexError(0, 'The message is being sent by another worker');
    if (await this.foundInWebex(taken)) return 'already sent';
    try {
      await beforeSend?.();
      const sent = await this.webex.send(to, fitted, file, beforeSend);
      return (await this.confirmSent(key, sent.id)) ? 'sent' : 'already sent';
    } catch (error) {
      await this.letGo(key);
      throw error;
    }
  }

  /**
   * Sends a message once under `key`, durably: recorded with its file first, tried now, and when Webex does not take
   * it, tried again later (the answer is then 'waiting'; `of.subject`'s `onEnd` hears how it ended). A job passes
   * `beforeSend` (its lease check): run right before the message goes, and again before a file's last bytes, it stops
   * a worker that lost its job from sending the message a second time (what it throws is thrown).
   */
  async deliver(
    key: string,
    to: WebexRecipient,
    markdown: string,
    file: (WebexFile & { content: Buffer }) | undefined,
    of: DeliveryOf,
    beforeSend?: () => Promise<void>,
  ): Promise<DeliveryResult> {
    const fitted = fitMarkdown(markdown);
    const taken = await this.record(key, to, fitted, file, of);
    if (taken === 'already sent') return { outcome: taken, error: null };
    if (taken === 'failed' || taken === 'waiting') {
      const [row] = await this.db.select().from(webexDeliveries).where(eq(webexDeliveries.key, key));
      return { outcome: taken, error: row?.error ?? null };
    }
    return this.attempt(taken, fitted, file, beforeSend);
  }

  /**
   * Records the message, or takes over its record (`fresh` false: recorded before and not confirmed, it is looked
   * for in Webex first), or answers where it stands when it is not this caller's to send.
   */
  private async record(
    key: string,
    to: WebexRecipient,
    fitted: string,
    file: (WebexFile & { content: Buffer }) | undefined,
    of: DeliveryOf,
  ): Promise<Held | 'already sent' | 'waiting' | 'failed'> {
    const [recorded] = await this.db
      .insert(webexDeliveries)
      .values({
        key,
        toEmail: recipientKey(to),
        markdownSha256: sha256(fitted),
        status: of.later ? 'waiting' : 'sending',
        nextAttemptAt: of.later ? sql`now()` : null,
        markdown: fitted,
        fileName: file?.filename ?? null,
        fileType: file?.contentType ?? null,
        fileContent: file?.content ?? null,
        subject: of.subject,
        position: of.position ?? 0,
        userId: of.userId ?? null,
        notice: of.notice ?? null,
        attempts: of.later ? 0 : 1,
      })
      .onConflictDoNothing()
      .returning();
    if (recorded) return recorded.status === 'waiting' ? 'waiting' : { row: recorded, fresh: true };
    // Recorded before and not confirmed: the job (taken up again) takes it over, unless a retry holds it now.
    const [taken] = await this.db
      .update(webexDeliveries)
      .set({ attempts: sql`${webexDeliveries.attempts} + 1` })
      .where(
        and(
          eq(webexDeliveries.key, key),
          eq(webexDeliveries.status, 'sending'),
          or(sql`${webexDeliveries.claimedUntil} is null`, lt(webexDeliveries.claimedUntil, sql`now()`)),
        ),
      )
      .returning();
    if (taken) return { row: taken, fresh: false };
    const [row] = await this.db.select().from(webexDeliveries).where(eq(webexDeliveries.key, key));
    if (row?.status === 'sent') return 'already sent';
    return row?.status === 'failed' ? 'failed' : 'waiting';
  }

  /** Whether a message recorded before (and not confirmed) is in Webex already: confirmed then. */
  private async foundInWebex({ row, fresh }: Held): Promise<boolean> {
    if (fresh) return false;
    const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
    const found = (await this.sentTo(row.toEmail)).find(
      (message) =>
        sha256(message.markdown ?? message.text ?? '') === row.markdownSha256 && Date.parse(message.created) >= since,
    );
    if (!found) return false;
    await this.confirm(row.key, found.id);
    return true;
  }

  /** One attempt at a message this caller holds: sent, or waiting for a retry, or given up. */
  private async attempt(
    held: Held,
    fitted: string,
    file: WebexFile | undefined,
    beforeSend?: () => Promise<void>,
  ): Promise<DeliveryResult> {
    const { row } = held;
    try {
      const found = await this.foundInWebex(held).catch((error: unknown) => {
        // Webex could not say whether it has the message: what the person is told stays why it was not sent.
        throw error instanceof WebexError && row.error ? new WebexError(error.status, row.error) : error;
      });
      if (found) return { outcome: 'already sent', error: null };
      await beforeSend?.();
      // A file is uploaded as it is read: the check runs again before its last bytes (a worker paused mid-upload).
      const sent = await this.webex.send(recipientOf(row.toEmail), fitted, file, beforeSend);
      return { outcome: (await this.confirmSent(row.key, sent.id)) ? 'sent' : 'already sent', error: null };
    } catch (error) {
      if (!(error instanceof WebexError)) {
        // The job stopped (its lease lost, the database away): the message stays for whoever resumes the job.
        await this.letGo(row.key).catch(() => undefined);
        throw error;
      }
      return this.missed(row, error);
    }
  }

  /** Webex did not take a message: it waits for its next attempt, or is given up (a refusal, or too long). */
  private async missed(row: Row, error: WebexError): Promise<DeliveryResult> {
    const { firstMs, maxMs, giveUpMs } = this.retry;
    const delayMs = Math.min(maxMs, firstMs * 2 ** Math.max(0, Math.min(30, row.attempts - 1)));
    const final = !isTransient(error);
    const givenUp = sql`(${final} or ${webexDeliveries.createdAt} + ${giveUpMs}::int * interval '1 millisecond' <= now())`;
    const [ended] = await this.db
      .update(webexDeliveries)
      .set({
        status: sql`case when ${givenUp} then 'failed' else 'waiting' end`,
        nextAttemptAt: sql`now() + ${delayMs}::int * interval '1 millisecond'`,
        claimedUntil: null,
        error: error.message,
        finishedAt: sql`case when ${givenUp} then now() else null end`,
        fileContent: sql`case when ${givenUp} then null else ${webexDeliveries.fileContent} end`,
      })
      // A sender that went late (stopped past its hold) finds the message sent by another: it stays sent.
      .where(and(eq(webexDeliveries.key, row.key), ne(webexDeliveries.status, 'sent')))
      .returning({ status: webexDeliveries.status });
    if (!ended) return { outcome: 'already sent', error: null };
    if (ended.status === 'failed') return { outcome: 'failed', error: error.message };
    await this.options.queue
      ?.send(DELIVERY_QUEUE, { subject: row.subject ?? row.key }, { startAfter: Math.ceil(delayMs / 1000) })
      .catch((failure: unknown) =>
        this.options.logger?.warn({ err: failure, key: row.key }, 'a Webex retry was not queued; the sweep takes it'),
      );
    return { outcome: 'waiting', error: error.message };
  }

  /** The bot's latest messages where a delivery was recorded: a person's direct space, or a room. */
  private async sentTo(recipient: string) {
    if (!recipient.startsWith(ROOM)) return this.webex.directMessages(recipient);
    // A room may not show the bot its own messages: not found there, the message is sent again.
    return this.webex.roomMessages(recipient.slice(ROOM.length)).catch(() => []);
  }

  /**
   * Records the message this sender just sent under `key`; false when another sender's message is recorded there
   * already (this one went late: its sender was stopped past its hold): this one is then deleted, the key keeps one.
   */
  private async confirmSent(key: string, messageId: string | null): Promise<boolean> {
    if (await this.confirm(key, messageId)) return true;
    if (messageId === null) return false;
    this.options.logger?.warn({ key }, 'a Webex message went out twice under its key; the later one is deleted');
    await this.webex.deleteMessage(messageId).catch((error: unknown) => {
      this.options.logger?.warn({ err: error, key }, 'a Webex message sent twice under its key could not be deleted');
    });
    return false;
  }

  /**
   * Records `messageId` as the key's message, unless another is recorded there already (the first recorded stays);
   * answers whether it is the one recorded.
   */
  private async confirm(key: string, messageId: string | null): Promise<boolean> {
    const recorded = await this.db
      .update(webexDeliveries)
      .set({
        status: 'sent',
        messageId,
        claimedUntil: null,
        fileContent: null,
        error: null,
        finishedAt: sql`now()`,
      })
      .where(recordable(key, messageId))
      .returning({ key: webexDeliveries.key });
    return recorded.length > 0;
  }

  /** A sender that stopped before the message went lets it go: the next holder takes it at once. */
  private async letGo(key: string): Promise<void> {
    await this.db
      .update(webexDeliveries)
      .set({ claimedUntil: null })
      .where(and(eq(webexDeliveries.key, key), eq(webexDeliveries.status, 'sending')));
  }

  /**
   * Tries a subject's due messages again, in their order (a later one never before an earlier one still waiting),
   * each taken by one sender at a time; then tells the subject where its messages stand once none waits.
   */
  async retrySubject(subject: string): Promise<void> {
    const rows = await this.db
      .select({ key: webexDeliveries.key, status: webexDeliveries.status })
      .from(webexDeliveries)
      .where(and(eq(webexDeliveries.subject, subject), inArray(webexDeliveries.status, ['sending', 'waiting'])))
      .orderBy(asc(webexDeliveries.position), asc(webexDeliveries.createdAt));
    for (const { key } of rows) {
      const [row] = await this.db
        .update(webexDeliveries)
        .set({
          status: 'sending',
          claimedUntil: sql`now() + ${RETRY_CLAIM_MS}::int * interval '1 millisecond'`,
          attempts: sql`${webexDeliveries.attempts} + 1`,
        })
        .where(and(eq(webexDeliveries.key, key), retriable()))
        .returning();
      // Not due yet, or another sender has it: what comes after it waits behind it.
      if (!row) break;
      const file =
        row.fileName && row.fileContent
          ? {
              filename: row.fileName,
              contentType: row.fileType ?? 'application/octet-stream',
              content: row.fileContent,
            }
          : undefined;
      const { outcome } = await this.attempt({ row, fresh: false }, row.markdown ?? '', file);
      if (outcome === 'waiting') break;
    }
    const state = await this.subjectState(subject);
    if (state.status === 'waiting') return;
    const [kind, ...id] = subject.split(':');
    await this.told.get(kind ?? '')?.(id.join(':'), state);
  }

  /** Where a subject's messages stand: failed if one was given up, sent once every one went, else waiting; null: none. */
  async messageOf(subject: string): Promise<SubjectDelivery | null> {
    const rows = await this.db
      .select({ status: webexDeliveries.status, error: webexDeliveries.error })
      .from(webexDeliveries)
      .where(eq(webexDeliveries.subject, subject));
    return rows.length === 0 ? null : deliveryState(rows);
  }

  /** Where a subject's messages stand (one with none has nothing left to send). */
  async subjectState(subject: string): Promise<SubjectDelivery> {
    return (await this.messageOf(subject)) ?? { status: 'sent', error: null };
  }

  /** Every subject with a message due (a lost queued retry, a sender that died), tried again. */
  async retryDue(): Promise<number> {
    const due = await this.db
      .selectDistinct({ subject: webexDeliveries.subject })
      .from(webexDeliveries)
      .where(and(isNotNull(webexDeliveries.subject), retriable()))
      .limit(RETRY_BATCH);
    for (const { subject } of due) if (subject) await this.retrySubject(subject);
    return due.length;
  }

  /** The queued retries (at each message's time) and the sweep every minute (what a lost retry left). */
  jobs(): Job[] {
    return [
      queuedJob({
        queue: DELIVERY_QUEUE,
        data: z.object({ subject: z.string().min(1) }),
        run: ({ subject }) => this.retrySubject(subject),
      }),
      periodicJob('webex.deliveries.retry', EVERY_MINUTE, async () => {
        await this.retryDue();
      }),
    ];
  }

  /** Notifications (a NotificationSource): the person's messages given up since `since`, one per subject. */
  async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
    const rows = await this.db
      .select()
      .from(webexDeliveries)
      .where(
        and(
          eq(webexDeliveries.userId, user.id),
          eq(webexDeliveries.status, 'failed'),
          gt(webexDeliveries.finishedAt, since),
        ),
      )
      .orderBy(desc(webexDeliveries.finishedAt))
      .limit(limit);
    return givenUpNotifications(user, rows);
  }

  /** Messages still to go are not work the person waits on in the shell's count. */
  activeCount = async (): Promise<number> => 0;

  /** Retention: records older than `days`. */
  async prune(days: number): Promise<number> {
    const deleted = await this.db
      .delete(webexDeliveries)
      .where(lt(webexDeliveries.createdAt, sql`now() - ${days} * interval '1 day'`))
      .returning({ key: webexDeliveries.key });
    return deleted.length;
  }
}
