import { z } from 'zod';
import {
  REPORT_KINDS,
  REVIEW_PERIOD_KINDS,
  reportKindSchema,
  userMay,
  type LastPack,
  type SessionUser,
} from '@ce/contract';

/**
 * A customer's review packs as My customers and the fleet summary name them (issue 60): the period in words and when
 * the next pack is due. Pure.
 */

const DAY_MS = 86_400_000;

/** The report kind of a review pack. */
export const PACK_KIND = 'review-pack';

/** Whether the caller opens review packs in My Reports: a session does; a personal API token carrying their capability. */
export function mayOpenPacks(user: SessionUser): boolean {
  if (!user.apiToken) return true;
  const kind = reportKindSchema.safeParse(PACK_KIND);
  return kind.success && userMay(user, REPORT_KINDS[kind.data].capability);
}

/** A finished review pack's report, as the repository reads it. */
export interface PackRow {
  id: string;
  options: unknown;
  finishedAt: Date | null;
  createdAt: Date;
}

const parseDay = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** `date` moved by `months` months, its day kept (the month's last day where the month is shorter). */
function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), last)));
}

const monthYear = (date: Date) => date.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayMonth = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "April 2026", "Q2 2026", or "3 Mar – 16 Apr 2026" for dates the TAM chose. */
export function periodLabel(kind: LastPack['periodKind'], from: string, to: string): string {
  const start = parseDay(from);
  const end = parseDay(to);
  if (kind === 'month') return monthYear(start);
  if (kind === 'quarter') return `Q${Math.floor(start.getUTCMonth() / 3) + 1} ${start.getUTCFullYear()}`;
  const sameYear = start.getUTCFullYear() === end.getUTCFullYear();
  return `${dayMonth(start)}${sameYear ? '' : ` ${start.getUTCFullYear()}`} – ${dayMonth(end)} ${end.getUTCFullYear()}`;
}

/**
 * When the next pack is due: the first day after the period that follows the last pack's, as long as it (month:
 * the next month; quarter: the next quarter; dates: as many days again). A pack built before its period ended (the
 * month so far) does not cover it: the pack of that whole period is due the day after it ends.
 */
export function nextPackDue(pack: Pick<LastPack, 'periodKind' | 'from' | 'to'> & { builtAt?: string }): string {
  const after = new Date(parseDay(pack.to).getTime() + DAY_MS);
  if (pack.builtAt !== undefined && Date.parse(pack.builtAt) < after.getTime()) return dayOf(after);
  if (pack.periodKind === 'month') return dayOf(addMonths(after, 1));
  if (pack.periodKind === 'quarter') return dayOf(addMonths(after, 3));
  const days = Math.round((after.getTime() - parseDay(pack.from).getTime()) / DAY_MS);
  return dayOf(new Date(after.getTime() + days * DAY_MS));
}

/** A pack's options as far as My customers reads them: its period. */
const packOptionsSchema = z.object({
  period: z.object({ kind: z.enum(REVIEW_PERIOD_KINDS), from: z.iso.date(), to: z.iso.date() }),
});

/** A pack's report as My customers names it, or null when its options hold no period (not a pack it can date). */
export function lastPackOf(row: PackRow): LastPack | null {
  const parsed = packOptionsSchema.safeParse(row.options);
  if (!parsed.success) return null;
  const { kind, from, to } = parsed.data.period;
  return {
    reportId: row.id,
    periodKind: kind,
    from,
    to,
    periodLabel: periodLabel(kind, from, to),
    builtAt: (row.finishedAt ?? row.createdAt).toISOString(),
  };
}
