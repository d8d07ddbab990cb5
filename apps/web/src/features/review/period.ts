import { REVIEW_EARLIEST_DAY, REVIEW_MESSAGES, REVIEW_PERIOD_MAX_DAYS, type ReviewPeriodKind } from '@ce/contract';

/**
 * The review pack's period and cut-off, in UTC days as the contract takes them (`from` and `to` its first and last
 * day, both included). Pure: the page passes "now", so a test fixes it.
 */

export interface PeriodChoice {
  kind: ReviewPeriodKind;
  from: string;
  to: string;
}

export interface PeriodOption {
  /** The select's value: "2026-11" for a month, "2026-Q3" for a quarter. */
  value: string;
  label: string;
  period: PeriodChoice;
}

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);
const utc = (year: number, month: number, date = 1) => new Date(Date.UTC(year, month, date));
const monthName = (date: Date) => date.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortMonth = (date: Date) => date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });

/** The month that starts `back` months before the one `now` is in. */
function month(now: Date, back: number): PeriodOption {
  const start = utc(now.getUTCFullYear(), now.getUTCMonth() - back);
  const end = utc(start.getUTCFullYear(), start.getUTCMonth() + 1, 0);
  const value = day(start).slice(0, 7);
  return {
    value,
    label: back === 0 ? `${monthName(start)} (so far)` : monthName(start),
    period: { kind: 'month', from: day(start), to: day(end) },
  };
}

/** The calendar quarter that starts `back` quarters before the one `now` is in. */
function quarter(now: Date, back: number): PeriodOption {
  const first = Math.floor(now.getUTCMonth() / 3) * 3 - back * 3;
  const start = utc(now.getUTCFullYear(), first);
  const end = utc(start.getUTCFullYear(), start.getUTCMonth() + 3, 0);
  const number = Math.floor(start.getUTCMonth() / 3) + 1;
  const months = `${shortMonth(start)}–${shortMonth(end)}`;
  return {
    value: `${start.getUTCFullYear()}-Q${number}`,
    label: `Q${number} ${start.getUTCFullYear()} (${months})${back === 0 ? ', so far' : ''}`,
    period: { kind: 'quarter', from: day(start), to: day(end) },
  };
}

/** The months a pack can cover, newest first: this one so far, then the twelve before it. */
export const monthOptions = (now: Date): PeriodOption[] => Array.from({ length: 13 }, (_, back) => month(now, back));

/** The quarters a pack can cover, newest first: this one so far, then the four before it. */
export const quarterOptions = (now: Date): PeriodOption[] => Array.from({ length: 5 }, (_, back) => quarter(now, back));

/** The default period of a kind: the last full month or quarter; for dates, the last 30 days up to today. */
export function defaultPeriod(kind: ReviewPeriodKind, now: Date): PeriodChoice {
  if (kind === 'month') return month(now, 1).period;
  if (kind === 'quarter') return quarter(now, 1).period;
  return { kind, from: day(new Date(now.getTime() - 29 * DAY_MS)), to: day(now) };
}

/** Whether a field holds a day of the calendar ("2026-02-30" and a half-typed date do not). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

/** What is wrong with each day of a period, beside the field it is about, in the contract's words. */
export interface DayProblems {
  from: string | null;
  to: string | null;
}

export function dayProblems(period: PeriodChoice, now: Date): DayProblems {
  const fromDay = isDay(period.from);
  const toDay = isDay(period.to);
  const from = !fromDay
    ? REVIEW_MESSAGES.firstDayMissing
    : period.from < REVIEW_EARLIEST_DAY
      ? REVIEW_MESSAGES.periodTooEarly
      : period.from > day(now)
        ? REVIEW_MESSAGES.periodInFuture
        : null;
  const to = !toDay
    ? REVIEW_MESSAGES.lastDayMissing
    : !fromDay
      ? null
      : period.from > period.to
        ? REVIEW_MESSAGES.periodOrder
        : (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS >= REVIEW_PERIOD_MAX_DAYS
          ? REVIEW_MESSAGES.periodTooLong
          : null;
  return { from, to };
}

/** What is wrong with a period (its first day's problem first), in the contract's words; null when a pack can cover it. */
export function periodProblem(period: PeriodChoice, now: Date): string | null {
  const { from, to } = dayProblems(period, now);
  return from ?? to;
}

/** A cut-off as a `datetime-local` input holds it (to the second), read as UTC: "2026-12-02T13:07:30". */
export const cutOffInput = (iso: string) => iso.slice(0, 19);

/** The second it is now, as ISO-8601 UTC: the default cut-off (all that is stored so far is counted). */
export const cutOffNow = (now: Date) => `${cutOffInput(now.toISOString())}.000Z`;

/** A `datetime-local` value (with or without its seconds) read as UTC, as ISO-8601; null when it is not one. */
export function cutOffOf(input: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(input)) return null;
  const at = new Date(`${input.length === 16 ? `${input}:00` : input}.000Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export const CUT_OFF_IN_FUTURE = 'The cut-off is later than now: choose now or an earlier moment.';

/** What is wrong with a cut-off for a period; null when it may be used. */
export function cutOffProblem(cutOff: string | null, period: PeriodChoice, now: Date): string | null {
  if (cutOff === null) return 'Choose the cut-off’s day and time (UTC).';
  if (Date.parse(cutOff) <= Date.parse(`${period.from}T00:00:00.000Z`)) return REVIEW_MESSAGES.cutOffBeforePeriod;
  if (Date.parse(cutOff) > now.getTime()) return CUT_OFF_IN_FUTURE;
  return null;
}

/** A moment as the pack's footers say it: "2 Dec 2026, 13:07 UTC". */
export const utcMinute = (iso: string) =>
  `${new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  })} UTC`;
