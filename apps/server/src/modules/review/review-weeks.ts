import type { Measurements } from '@ce/contract';

/**
 * A pack's weeks: 7-day spans from the period's start to its end or the cut-off (the last may be shorter), each
 * labelled by the ISO week it starts in ("W27"). A watch run belongs to the span its results window ends in; of
 * several in one span, the latest stands for the week, so daily and weekly watches both give one value a week and no
 * window is counted twice. Pure.
 */

const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** The ISO-8601 week number of a UTC moment. */
export function isoWeek(time: number): number {
  const date = new Date(time);
  const day = (date.getUTCDay() + 6) % 7;
  const thursday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day + 3);
  const firstThursday = new Date(thursday);
  const yearStart = Date.UTC(firstThursday.getUTCFullYear(), 0, 1);
  return 1 + Math.floor((thursday - yearStart) / WEEK_MS);
}

export interface WeekSpan {
  label: string;
  start: number;
  end: number;
}

/** The spans of `[from, until)`: at least one. */
export function weekSpans(from: number, until: number): WeekSpan[] {
  const count = Math.max(1, Math.ceil((until - from) / WEEK_MS));
  return Array.from({ length: count }, (_, index) => {
    const start = from + index * WEEK_MS;
    return { label: `W${isoWeek(start)}`, start, end: Math.min(until, start + WEEK_MS) };
  });
}

/** The run that stands for each span (the latest whose window ends in it), or null for a span without one. */
export function runsByWeek(spans: WeekSpan[], runs: Measurements[]): (Measurements | null)[] {
  return spans.map((span) => {
    const inSpan = runs.filter((run) => {
      const to = Date.parse(run.to);
      return to > span.start && to <= span.end;
    });
    return inSpan.reduce<Measurements | null>(
      (latest, run) => (latest === null || Date.parse(run.to) >= Date.parse(latest.to) ? run : latest),
      null,
    );
  });
}
