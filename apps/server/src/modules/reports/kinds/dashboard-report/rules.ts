import type { PlatformDashboard } from '@ce/platform-client';

export interface InventoryRow {
  accountGroup: string;
  dashboard: PlatformDashboard;
  owner: string;
  modified: string;
}

export const widgetsOf = (dashboard: PlatformDashboard) => dashboard.widgets ?? [];
export const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** How many widgets of each type (or data source), most first. */
export function countBy(rows: InventoryRow[], key: (widget: Record<string, unknown>) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const widget of widgetsOf(row.dashboard)) {
      const value = key(widget) || 'not stated';
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
