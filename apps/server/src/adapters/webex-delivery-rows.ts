import { and, eq, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { webexDeliveries } from '../db/schema.js';

// Which `webex_deliveries` rows a sender may take, and on which it may record the message it sent (webex-delivery.ts).

/** A message a job recorded and never confirmed, whose job never came back for it: the retries take it over. */
const ABANDONED_MS = 60 * 60_000;

/** A retry may take a message: due, or its sender's claim lapsed (or its job never came back for it). */
export function retriable(): SQL {
  return and(
    isNotNull(webexDeliveries.markdown),
    or(
      and(eq(webexDeliveries.status, 'waiting'), sql`${webexDeliveries.nextAttemptAt} <= now()`),
      and(
        eq(webexDeliveries.status, 'sending'),
        or(
          lt(webexDeliveries.claimedUntil, sql`now()`),
          and(
            sql`${webexDeliveries.claimedUntil} is null`,
            sql`${webexDeliveries.createdAt} < now() - ${ABANDONED_MS}::int * interval '1 millisecond'`,
          ),
        ),
      ),
    ),
  ) as SQL;
}

/**
 * Whether `messageId` may be recorded as key `key`'s message: not while another message is recorded there (the first
 * recorded stays, whichever sender's answer comes last).
 */
export function recordable(key: string, messageId: string | null): SQL {
  return and(
    eq(webexDeliveries.key, key),
    or(
      ne(webexDeliveries.status, 'sent'),
      isNull(webexDeliveries.messageId),
      messageId === null ? sql`false` : eq(webexDeliveries.messageId, messageId),
    ),
  ) as SQL;
}
