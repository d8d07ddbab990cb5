import { useQuery } from '@tanstack/react-query';
import { NOTIFICATION_POLL_MS, type NotificationsResponse } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/notifications?since=: the user's work that ended badly since the previous answer's `now`. */
export const getNotifications = (since: string | null) =>
  apiRequest<NotificationsResponse>(
    since ? `/api/notifications?since=${encodeURIComponent(since)}` : '/api/notifications',
  );

export const notificationsQueryKey = ['notifications'] as const;

/**
 * Polls every few seconds while the user has work under way, every minute otherwise. `since` is a
 * cursor read at each poll, not part of the key: there is one poll, whatever the cursor.
 */
export function useNotificationsPoll(since: () => string | null) {
  return useQuery({
    queryKey: notificationsQueryKey,
    queryFn: () => getNotifications(since()),
    refetchInterval: (query) => (query.state.data?.active ? NOTIFICATION_POLL_MS.active : NOTIFICATION_POLL_MS.idle),
    staleTime: 0,
    retry: false,
  });
}
