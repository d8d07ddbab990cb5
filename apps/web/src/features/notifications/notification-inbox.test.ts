import { describe, expect, it } from 'vitest';
import type { NotificationsResponse, WorkNotification } from '@ce/contract';
import { absorb, EMPTY_INBOX, markSeen, parseInbox, unseenOn } from './notification-inbox';

const failed = (key: string, at: string, path: WorkNotification['path'] = '/home/reports'): WorkNotification => ({
  key,
  source: 'report',
  outcome: 'failed',
  title: 'Alerts Configuration Report failed',
  message: 'Acme: the token was refused',
  path,
  at,
});
const answer = (now: string, notifications: WorkNotification[]): NotificationsResponse => ({
  now,
  active: 0,
  notifications,
});

describe('the notification inbox', () => {
  it('tells each notification once, though the server sends it again in its overlap', () => {
    const first = absorb(
      EMPTY_INBOX,
      answer('2026-11-23T10:00:00.000Z', [failed('a:failed', '2026-11-23T09:59:58.000Z')]),
      '/home/dashboard',
    );
    expect(first.tell.map((notification) => notification.key)).toEqual(['a:failed']);
    expect(first.inbox.since).toBe('2026-11-23T10:00:00.000Z');

    const again = absorb(
      first.inbox,
      answer('2026-11-23T10:00:05.000Z', [
        failed('b:failed', '2026-11-23T10:00:03.000Z'),
        failed('a:failed', '2026-11-23T09:59:58.000Z'),
      ]),
      '/home/dashboard',
    );
    expect(again.tell.map((notification) => notification.key)).toEqual(['b:failed']);
    expect(unseenOn(again.inbox, '/home/reports')).toBe(2);
  });

  it('does not tell what the current page shows, nor badge it', () => {
    const { inbox, tell } = absorb(
      EMPTY_INBOX,
      answer('2026-11-23T10:00:00.000Z', [
        failed('run:partly-failed', '2026-11-23T09:59:59.000Z', '/home/tools/bulk-tests'),
        failed('r:failed', '2026-11-23T09:59:59.000Z'),
      ]),
      '/home/tools/bulk-tests',
    );
    expect(tell.map((notification) => notification.key)).toEqual(['r:failed']);
    expect(unseenOn(inbox, '/home/tools/bulk-tests')).toBe(0);
    expect(unseenOn(inbox, '/home/reports')).toBe(1);
  });

  it('clears a page badge when the user opens that page, and only that one', () => {
    const { inbox } = absorb(
      EMPTY_INBOX,
      answer('2026-11-23T10:00:00.000Z', [
        failed('run:failed', '2026-11-23T09:59:59.000Z', '/home/tools/bulk-operations'),
        failed('r:failed', '2026-11-23T09:59:59.000Z'),
      ]),
      '/home/dashboard',
    );
    const seen = markSeen(inbox, '/home/reports');
    expect(unseenOn(seen, '/home/reports')).toBe(0);
    expect(unseenOn(seen, '/home/tools/bulk-operations')).toBe(1);
    expect(markSeen(seen, '/home/settings')).toBe(seen);
  });

  it('forgets what it told once the overlap cannot send it again', () => {
    const { inbox } = absorb(
      EMPTY_INBOX,
      answer('2026-11-23T10:00:00.000Z', [failed('old:failed', '2026-11-23T09:59:59.000Z')]),
      '/home/reports',
    );
    const later = absorb(inbox, answer('2026-11-23T10:05:00.000Z', []), '/home/reports');
    expect(later.inbox.told).toEqual({});
  });

  it('reads what it kept, and starts empty from anything else', () => {
    const { inbox } = absorb(
      EMPTY_INBOX,
      answer('2026-11-23T10:00:00.000Z', [failed('a:failed', '2026-11-23T09:59:59.000Z')]),
      '/home/dashboard',
    );
    expect(parseInbox(JSON.stringify(inbox))).toEqual(inbox);
    expect(parseInbox(null)).toBe(EMPTY_INBOX);
    expect(parseInbox('{not json')).toBe(EMPTY_INBOX);
    expect(parseInbox('{"since":5,"told":{},"unseen":[]}')).toBe(EMPTY_INBOX);
  });
});
