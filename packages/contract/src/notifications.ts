import { z } from 'zod';
import { NOTIFICATION_OUTCOMES } from './notification-words.js';
import { PATHS } from './paths.js';

export {
  NOTIFICATION_LIMIT,
  NOTIFICATION_LOOKBACK_MS,
  NOTIFICATION_OUTCOMES,
  NOTIFICATION_OVERLAP_MS,
  NOTIFICATION_POLL_MS,
  type NotificationOutcome,
} from './notification-words.js';

export const workNotificationSchema = z.object({
  /** Unique per report or run and outcome: the browser tells each one once. */
  key: z.string(),
  source: z.enum(['report', 'bulk', 'alerts-migration', 'backup-restore', 'watch']),
  outcome: z.enum(NOTIFICATION_OUTCOMES),
  /** Short, for the toast's title: "Alerts Report failed". */
  title: z.string(),
  /** What happened, for whom: "Acme: The platform refused the token." */
  message: z.string(),
  /** The page that shows the details (and carries the badge). */
  path: z.enum([
    PATHS.reports,
    PATHS.bulkTests,
    PATHS.bulkOperations,
    PATHS.alertsMigration,
    PATHS.backupRestore,
    // An Account Watch's message given up: its customer's page, under My customers.
    PATHS.customers,
  ]),
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
