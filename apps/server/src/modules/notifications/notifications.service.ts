import {
  NOTIFICATION_LIMIT,
  NOTIFICATION_LOOKBACK_MS,
  NOTIFICATION_OVERLAP_MS,
  userMay,
  type NotificationsResponse,
  type SessionUser,
} from '@ce/contract';
import type { NotificationSource } from '../../core/modules.js';

export type { NotificationSource } from '../../core/modules.js';

/**
 * What the shell polls: the user's work that ended badly since the last poll, and how much is still
 * under way (so the browser polls fast only while something can still end).
 */
export class NotificationsService {
  constructor(
    private readonly sources: readonly NotificationSource[],
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * `sessionStartedAt`: a browser's session hears nothing that ended before the user signed in, however far
   * back its cursor (and the overlap before it) reaches; notifications end with the session.
   */
  async list(user: SessionUser, since: string | undefined, sessionStartedAt?: Date): Promise<NotificationsResponse> {
    const now = this.clock();
    const from = new Date(
      since === undefined
        ? now.getTime()
        : Math.max(
            Math.min(Date.parse(since), now.getTime()) - NOTIFICATION_OVERLAP_MS,
            now.getTime() - NOTIFICATION_LOOKBACK_MS,
            sessionStartedAt?.getTime() ?? -Infinity,
          ),
    );
    // What the caller may hear of, as its lists show it: a personal API token only its capabilities' sources.
    const sources = this.sources.filter((source) => !source.capability || userMay(user, source.capability));
    const [found, active] = await Promise.all([
      Promise.all(sources.map((source) => source.problemsSince(user, from, NOTIFICATION_LIMIT))),
      Promise.all(sources.map((source) => source.activeCount(user))),
    ]);
    return {
      now: now.toISOString(),
      active: active.reduce((sum, count) => sum + count, 0),
      // A message given up is told by its tool (a report's row) and by the deliveries: once, by its key.
      notifications: [...new Map(found.flat().map((notification) => [notification.key, notification])).values()]
        .sort((a, b) => b.at.localeCompare(a.at))
        .slice(0, NOTIFICATION_LIMIT),
    };
  }
}
