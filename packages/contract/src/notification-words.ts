// Apart from the schemas (notifications.ts): the app's shell polls with these without loading the schema library.

/**
 * Work that ended badly after the user was told it was requested: a report or bulk run that failed,
 * a report made but not delivered in Webex, a bulk run where some operations failed. The shell polls
 * for these wherever the user is, so a failure is never only visible in the page that lists it.
 */
export const NOTIFICATION_POLL_MS = {
  /** While the user has work queued or running. */
  active: 5_000,
  /** Otherwise: a run finishing needs a request first, and requests make the poll fast again. */
  idle: 60_000,
} as const;

/**
 * How far before `since` the server looks again: a job stamps its end just before it commits, on an
 * instance whose clock may differ a little. The browser drops what it already told the user.
 */
export const NOTIFICATION_OVERLAP_MS = 30_000;
/** A browser back after a long absence hears about the last week at most. */
export const NOTIFICATION_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;
export const NOTIFICATION_LIMIT = 20;

export const NOTIFICATION_OUTCOMES = ['failed', 'partly-failed', 'not-delivered'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];
