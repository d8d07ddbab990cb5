/** A moment as reports print it, to the minute in UTC: "2026-12-01 09:30 UTC". */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * A time stamp the platform answered (ISO 8601), printed as `utcMinute` prints a moment; one that does not read as
 * a date is printed as it came, so one odd field never stops a report.
 */
export function utcMinuteOf(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : utcMinute(at);
}
