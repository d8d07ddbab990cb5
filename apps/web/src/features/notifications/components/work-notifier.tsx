import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { toast } from '../../../components/ui/toast-store';
import { notificationsQueryKey, useNotificationsPoll } from '../api/get-notifications';
import { inboxStore } from '../inbox-store';
import { absorb, markSeen, unseenOn } from '../notification-inbox';

/** Failures are told for longer than a toast's usual few seconds: the user was busy elsewhere. */
const NOTIFICATION_TOAST_MS = 10_000;

/**
 * Mounted once in the shell: polls the user's notifications and tells each failure once, as a toast,
 * wherever the user is; what they have not opened yet waits as a badge on the page that shows it.
 */
export function WorkNotifier() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const poll = useNotificationsPoll(() => inboxStore.read().since);

  useEffect(() => {
    inboxStore.reload();
    const onStorage = () => inboxStore.reload();
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Something was just requested: poll now (and fast, while it is under way).
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success')
          void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
      }),
    [queryClient],
  );

  // Taking in the same answer twice tells nothing twice, so this may run again when the page changes.
  useEffect(() => {
    if (!poll.data) return;
    const { inbox, tell } = absorb(inboxStore.read(), poll.data, pathname);
    inboxStore.write(inbox);
    for (const notification of tell) {
      const type = notification.outcome === 'failed' ? 'error' : 'warning';
      toast.show(type, notification.message, {
        title: notification.title,
        timeout: NOTIFICATION_TOAST_MS,
        endsWithSession: true,
      });
    }
  }, [poll.data, pathname]);

  useEffect(() => inboxStore.write(markSeen(inboxStore.read(), pathname)), [pathname]);

  return null;
}

/** How many notifications wait, unseen, on the pages at `paths`. */
export function useUnseenCount(...paths: string[]): number {
  const inbox = useSyncExternalStore(inboxStore.subscribe, inboxStore.getSnapshot);
  return paths.reduce((sum, path) => sum + unseenOn(inbox, path), 0);
}
