import { z } from 'zod';
import { PATHS } from './paths.js';

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

export const workNotificationSchema = z.object({
  /** Unique per report or run and outcome: the browser tells each one once. */
  key: z.string(),
  source: z.enum(['report', 'bulk', 'alerts-migration', 'backup-restore']),
  outcome: z.enum(NOTIFICATION_OUTCOMES),
  /** Short, for the toast's title: "Alerts Report failed". */
  title: z.string(),
  /** What happened, for whom: "Acme: The platform refused the token." */
  message: z.string(),
  /** The page that shows the details (and carries the badge). */
  path: z.enum([PATHS.reports, PATHS.bulkTests, PATHS.bulkOperations, PATHS.alertsMigration, PATHS.backupRestore]),
  at: z.iso.datetime(),
});
export type WorkNotification = z.infer<typeof workNotificationSchema>;

export const notificationsQuerySchema = z.object({
  /** The `now` of the previous answer; without it, nothing from before this request. */
  since: z.iso.datetime().optional(),
});

export const notificationsResponseSchema = z.object({
  /** The server's clock at the time of the read: the next `since`. */
  now: z.iso.datetime(),
  /** How many of the user's reports and runs are still queued or running. */
  active: z.number().int().nonnegative(),
  notifications: z.array(workNotificationSchema),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;
