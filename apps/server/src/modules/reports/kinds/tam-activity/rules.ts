import type { AuditEvent } from '@ce/platform-client';

const DAY_MS = 86_400_000;
/** HTML and PDF list this many events; the spreadsheet has them all. */
export const SHOWN_EVENTS = 300;
/** The busiest users and account groups shown first. */
export const BUSIEST = 10;

export interface ActivityEvent {
  date: string;
  event: string;
  user: string;
  accountGroup: string;
  ipAddress: string;
  resources: string;
}

export interface Tally {
  key: string;
  count: number;
  first: string;
  last: string;
}

export interface ActivitySummary {
  from: string;
  to: string;
  total: number;
  byUser: Tally[];
  byGroup: Tally[];
  byType: Tally[];
  /** Every day of the window, oldest first, with its count (days without events count 0). */
  byDay: { day: string; count: number }[];
}

function tally(events: ActivityEvent[], keyOf: (event: ActivityEvent) => string): Tally[] {
  const tallies = new Map<string, Tally>();
  for (const event of events) {
    const key = keyOf(event);
    const known = tallies.get(key);
    if (!known) tallies.set(key, { key, count: 1, first: event.date, last: event.date });
    else {
      known.count += 1;
      if (event.date < known.first) known.first = event.date;
      if (event.date > known.last) known.last = event.date;
    }
  }
  return [...tallies.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The summaries of the report: per user, account group, event type and day, over [to - days, to]. */
export function summarise(events: ActivityEvent[], to: Date, days: number): ActivitySummary {
  const from = new Date(to.getTime() - days * DAY_MS);
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.date.slice(0, 10), (counts.get(event.date.slice(0, 10)) ?? 0) + 1);
  const byDay: ActivitySummary['byDay'] = [];
  for (let time = Date.parse(from.toISOString().slice(0, 10)); time <= to.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    byDay.push({ day, count: counts.get(day) ?? 0 });
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total: events.length,
    byUser: tally(events, (event) => event.user),
    byGroup: tally(events, (event) => event.accountGroup),
    byType: tally(events, (event) => event.event),
    byDay,
  };
}

export const toEvent = (event: AuditEvent, groupName: (aid: string) => string): ActivityEvent => ({
  date: event.date,
  event: event.event,
  user: event.user ?? event.uid ?? 'unknown',
  accountGroup: event.accountGroupName || groupName(event.aid ?? ''),
  ipAddress: event.ipAddress ?? '',
  resources: (event.resources ?? [])
    .map((resource) => [resource.type, resource.name].filter(Boolean).join(': '))
    .join(', '),
});
