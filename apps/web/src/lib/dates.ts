/**
 * Dates and times as every page writes them (one style, whatever the browser's locale): "2 Dec 2026, 13:48" in the
 * reader's time zone, "2 Dec 2026" for a day, "2 Dec" where the year goes without saying. Day before month and a
 * 24-hour clock read the same to every team; an unreadable instant says so rather than "Invalid Date".
 */

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const DAY_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function written(format: Intl.DateTimeFormat, iso: string | Date): string {
  const date = iso instanceof Date ? iso : new Date(iso);
  return Number.isNaN(date.getTime()) ? 'an unknown date' : format.format(date);
}

/** "2 Dec 2026, 13:48", in the reader's time zone. */
export const dateTime = (iso: string | Date) => written(DATE_TIME, iso);

/** "2 Dec 2026". */
export const dateOnly = (iso: string | Date) => written(DATE, iso);

/** "2 Dec". */
export const dayMonth = (iso: string | Date) => written(DAY_MONTH, iso);

/** "2 Dec, 13:48": a run's time where the year goes without saying (several runs can fall on one day). */
export const dayTime = (iso: string | Date) => written(DAY_TIME, iso);
