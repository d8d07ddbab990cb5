/** A moment as reports print it, to the minute in UTC: "2026-12-01 09:30 UTC". */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
