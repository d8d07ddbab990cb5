import type { WatchSchedule } from '@ce/contract';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    // Zones are stored by their canonical names (a few hundred); the bound is a guard all the same.
    if (formats.size >= 1_000) formats.clear();
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, format);
  }
  return format;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock time in `timeZone` at the instant `at`. */
export function localTime(at: number, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `at`, in ms (whole minutes). */
function offsetAt(at: number, timeZone: string): number {
  const local = localTime(at, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  return asUtc - Math.floor(at / MINUTE_MS) * MINUTE_MS;
}

/**
 * The instant the wall clock of `timeZone` shows `hour:minute` on the given day. A time the clock skips (the
 * spring-forward gap) comes as late as the gap is long (02:30 becomes 03:30); a time the clock shows twice (the
 * fall-back hour) is its first occurrence.
 */
export function zonedInstant(
  day: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day, hour, minute);
  // The offsets in force around that day: a transition, if any, lies between them.
  const offsets = [...new Set([offsetAt(wall - 12 * HOUR_MS, timeZone), offsetAt(wall + 12 * HOUR_MS, timeZone)])];
  const matching = offsets
    .map((offset) => wall - offset)
    .filter((instant) => {
      const local = localTime(instant, timeZone);
      return local.hour === hour && local.minute === minute && local.day === day.day;
    });
  if (matching.length > 0) return Math.min(...matching);
  // In the gap: the offset before it, which lands as far past the gap's start as the time was.
  return wall - (offsets[0] ?? 0);
}

/** The first due time of `schedule` strictly after `after`. */
export function nextRunAfter(schedule: WatchSchedule, after: Date): Date {
  const [hour = 0, minute = 0] = schedule.time.split(':').map(Number);
  const start = localTime(after.getTime(), schedule.timeZone);
  // Today and the next seven days, in the zone's calendar (a calendar day is at most a week from its weekday).
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const day = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    if (schedule.cadence === 'weekly' && date.getUTCDay() !== schedule.weekday) continue;
    const instant = zonedInstant(day, hour, minute, schedule.timeZone);
    if (instant > after.getTime()) return new Date(instant);
  }
  throw new Error('a schedule has a due time within eight days');
}
