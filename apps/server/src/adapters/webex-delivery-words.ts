import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CAPABILITIES, userMay, type Capability, type SessionUser, type WorkNotification } from '@ce/contract';
import type { WebexError, WebexRecipient } from './webex-client.js';

// What a durable Webex delivery (webex-delivery.ts) is given and answers, and how one given up is told.

/** How a recipient is recorded: a person's email, or `room:<id>`. */
export const ROOM = 'room:';
export const recipientKey = (to: WebexRecipient) => (typeof to === 'string' ? to : `${ROOM}${to.roomId}`);
export const recipientOf = (recorded: string): WebexRecipient =>
  recorded.startsWith(ROOM) ? { roomId: recorded.slice(ROOM.length) } : recorded;

/** A message's hash, its line breaks as LF: a multipart upload (a message with a file) sends them as CRLF. */
export const sha256 = (text: string) => createHash('sha256').update(text.replaceAll('\r\n', '\n')).digest('hex');

/** When a message Webex did not take is tried again: after `firstMs`, doubling to `maxMs`; given up after `giveUpMs`. */
export interface DeliveryRetry {
  firstMs: number;
  maxMs: number;
  giveUpMs: number;
}
export const DEFAULT_DELIVERY_RETRY: DeliveryRetry = { firstMs: 15_000, maxMs: 10 * 60_000, giveUpMs: 6 * 60 * 60_000 };

/** What a person is told in notifications when a message is given up: "`title`", "`about`: Webex's words`after`". */
export interface DeliveryNotice {
  source: WorkNotification['source'];
  path: WorkNotification['path'];
  title: string;
  about: string;
  after?: string;
  /**
   * What one must be allowed to hear of it: the capabilities of the tool whose message it is (a report's kind's, a
   * watch's runs'). A personal API token hears of it only carrying every one of them, as the tool's own lists show
   * it; a notice naming none (a row of the release before) is told to a session only.
   */
  capabilities?: readonly Capability[];
}
const noticeSchema = z.object({
  source: z.string(),
  path: z.string(),
  title: z.string(),
  about: z.string(),
  after: z.string().optional(),
  capabilities: z
    .array(z.enum(Object.keys(CAPABILITIES) as [Capability, ...Capability[]]))
    .optional()
    .catch(undefined),
});

/** Whether `user` may hear that a message of this notice was given up (`DeliveryNotice.capabilities`). */
function mayHear(user: SessionUser, capabilities: readonly Capability[] | undefined): boolean {
  if (capabilities === undefined) return !user.apiToken;
  return capabilities.every((capability) => userMay(user, capability));
}

/** Whose message it is: its subject (`report:<id>`...), its place among the subject's, who hears of a failure. */
export interface DeliveryOf {
  subject: string;
  position?: number;
  userId?: string | null;
  notice?: DeliveryNotice;
  /** Not tried now: it waits behind an earlier message of its subject that Webex did not take. */
  later?: boolean;
}

/**
 * How a message went: `sent` (now, or `already sent` before), `waiting` (Webex did not take it: it is tried again,
 * and its subject told when it ends), `failed` (given up, `error` says why).
 */
export type DeliveryOutcome = 'sent' | 'already sent' | 'waiting' | 'failed';
export interface DeliveryResult {
  outcome: DeliveryOutcome;
  error: string | null;
}

/** Where a subject's messages stand once the retries are done with them for now. */
export interface SubjectDelivery {
  status: 'sent' | 'waiting' | 'failed';
  error: string | null;
}

/** Webex may take it later: unreachable, a timeout, throttled past the waits, or its own fault. */
export const isTransient = (error: WebexError) =>
  error.status <= 0 || error.status === 408 || error.status === 429 || error.status >= 500;

/**
 * The notifications of messages given up (newest first) that `user` may hear of, one per subject: keyed as their tool
 * keys its own.
 */
export function givenUpNotifications(
  user: SessionUser,
  rows: { key: string; subject: string | null; notice: unknown; error: string | null; finishedAt: Date | null }[],
): WorkNotification[] {
  const seen = new Set<string>();
  return rows.flatMap((row): WorkNotification[] => {
    const notice = noticeSchema.safeParse(row.notice);
    const subject = row.subject ?? row.key;
    if (!notice.success || !row.finishedAt || seen.has(subject)) return [];
    if (!mayHear(user, notice.data.capabilities)) return [];
    seen.add(subject);
    return [
      {
        key: `${subject.slice(subject.indexOf(':') + 1)}:not-delivered`,
        source: notice.data.source as WorkNotification['source'],
        path: notice.data.path as WorkNotification['path'],
        outcome: 'not-delivered',
        title: notice.data.title,
        message: `${notice.data.about}: ${row.error ?? 'Webex did not take the message'}${notice.data.after ?? ''}`,
        at: row.finishedAt.toISOString(),
      },
    ];
  });
}

/** Where messages stand together: failed if one was given up, sent once every one went, else waiting. */
export function deliveryState(rows: { status: string; error: string | null }[]): SubjectDelivery {
  const failed = rows.find((row) => row.status === 'failed');
  if (failed) return { status: 'failed', error: failed.error };
  if (rows.every((row) => row.status === 'sent')) return { status: 'sent', error: null };
  return { status: 'waiting', error: rows.find((row) => row.error)?.error ?? null };
}
