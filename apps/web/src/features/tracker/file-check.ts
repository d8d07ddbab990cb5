import { TRACKER_LIMITS, TRACKER_MESSAGES } from '@ce/contract';

/**
 * The browser's quick check before sending (spec section 5): a name ending .xlsx, .xls or .csv and under
 * 10 MB. The server decides by content; a renamed file passes here and is refused there.
 */
export function fileProblem(file: File | null, weekStart: string): string | null {
  if (!file || !weekStart) return TRACKER_MESSAGES.fileAndDateRequired;
  if (!/\.(xlsx|xls|csv)$/i.test(file.name)) return TRACKER_MESSAGES.wrongType;
  if (file.size >= TRACKER_LIMITS.fileBytes) return TRACKER_MESSAGES.tooLarge;
  return null;
}

/** Rows by engagement, in the order the server sent them (already sorted by due date within each). */
export function byEngagement<T extends { Engagement_ID: string; hours_spent: number }>(rows: T[]) {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.Engagement_ID, [...(groups.get(row.Engagement_ID) ?? []), row]);
  return [...groups].map(([engagement, items]) => ({
    engagement,
    rows: items,
    hours: Math.round(items.reduce((sum, row) => sum + row.hours_spent, 0) * 100) / 100,
  }));
}
