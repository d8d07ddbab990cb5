import { NOTIFICATION_OVERLAP_MS, type NotificationsResponse, type WorkNotification } from '@ce/contract';

/**
 * What this browser knows of the user's notifications: the cursor of the next poll, what it already
 * told (so the overlap the server adds is told once), and what the user has not seen yet, per page.
 */
export interface Inbox {
  since: string | null;
  /** Keys already told, with their time; forgotten once older than the overlap. */
  told: Record<string, string>;
  unseen: { key: string; path: string }[];
}

export const EMPTY_INBOX: Inbox = { since: null, told: {}, unseen: [] };

/**
 * Takes in one poll's answer. What is new is returned to be told, unless the user is on the page that
 * shows it (that page tells them itself); it also waits on that page's badge until the user opens it.
 */
export function absorb(
  inbox: Inbox,
  answer: NotificationsResponse,
  currentPath: string,
): { inbox: Inbox; tell: WorkNotification[] } {
  const fresh = answer.notifications.filter((notification) => !(notification.key in inbox.told));
  const forgetBefore = Date.parse(answer.now) - 2 * NOTIFICATION_OVERLAP_MS;
  const told = Object.fromEntries(Object.entries(inbox.told).filter(([, at]) => Date.parse(at) >= forgetBefore));
  for (const notification of fresh) told[notification.key] = notification.at;
  const elsewhere = fresh.filter((notification) => !onPage(currentPath, notification.path));
  return {
    inbox: {
      since: answer.now,
      told,
      unseen: [...inbox.unseen, ...elsewhere.map(({ key, path }) => ({ key, path }))],
    },
    tell: elsewhere,
  };
}

/** The user opened `currentPath`: what waits there is seen. */
export function markSeen(inbox: Inbox, currentPath: string): Inbox {
  const unseen = inbox.unseen.filter((item) => !onPage(currentPath, item.path));
  return unseen.length === inbox.unseen.length ? inbox : { ...inbox, unseen };
}

export const unseenOn = (inbox: Inbox, path: string) => inbox.unseen.filter((item) => item.path === path).length;

const onPage = (currentPath: string, path: string) => currentPath === path || currentPath.startsWith(`${path}/`);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** The inbox's shape, checked by hand: the app's shell does not load the schema library for it. */
function isInbox(value: unknown): value is Inbox {
  if (!isRecord(value) || !(value.since === null || isString(value.since))) return false;
  const { told, unseen } = value;
  return (
    isRecord(told) &&
    Object.values(told).every(isString) &&
    Array.isArray(unseen) &&
    unseen.every((item) => isRecord(item) && isString(item.key) && isString(item.path))
  );
}

/** Reads an inbox kept as JSON; anything else (an older shape, a hand edit) is an empty one. */
export function parseInbox(raw: string | null): Inbox {
  if (!raw) return EMPTY_INBOX;
  try {
    const value: unknown = JSON.parse(raw);
    return isInbox(value) ? value : EMPTY_INBOX;
  } catch {
    return EMPTY_INBOX;
  }
}
