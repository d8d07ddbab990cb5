import { readUserItem, writeUserItem } from '../../lib/user-storage';
import { EMPTY_INBOX, parseInbox, type Inbox } from './notification-inbox';

const ITEM = 'notifications';
const listeners = new Set<() => void>();
let snapshot: Inbox = EMPTY_INBOX;

/**
 * The inbox, kept in the signed-in user's local storage so a failure told in one tab is not told
 * again in another, and one that happened while the user was away is told when they come back.
 */
export const inboxStore = {
  /** Straight from storage (another tab may have written since). */
  read: (): Inbox => parseInbox(readUserItem(ITEM)),
  write(next: Inbox): void {
    const text = JSON.stringify(next);
    if (text === JSON.stringify(snapshot)) return;
    writeUserItem(ITEM, text);
    snapshot = next;
    listeners.forEach((listener) => listener());
  },
  /** Reads storage again: at sign-in (another user's inbox is not this one) and when another tab wrote. */
  reload(): void {
    snapshot = inboxStore.read();
    listeners.forEach((listener) => listener());
  },
  getSnapshot: (): Inbox => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
