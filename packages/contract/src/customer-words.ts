// Apart from the schemas (customers.ts): a customer's page shows these without loading the schema library.

/** The tools whose work a customer's page lists, in the order its filter offers them. */
export const TIMELINE_TOOLS = ['reports', 'bulk', 'alerts-migration', 'backups', 'restores', 'dashboards'] as const;
export type TimelineTool = (typeof TIMELINE_TOOLS)[number];

export const TIMELINE_TOOL_LABELS: Record<TimelineTool, string> = {
  reports: 'Reports',
  bulk: 'Bulk runs',
  'alerts-migration': 'Alerts migrations',
  backups: 'Backups',
  restores: 'Restores',
  dashboards: 'Dashboard pushes',
};

/** How far back a customer's page looks, in days (its filter's choices). */
export const TIMELINE_DAYS = [7, 30, 90, 365] as const;
/** The most entries one answer holds (newest first). */
export const TIMELINE_LIMIT = 200;
