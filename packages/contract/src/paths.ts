/** Every route of the web application (spec section 2, plus /home/reports from the reports issue). */
export const PATHS = {
  login: '/login',
  home: '/home',
  dashboard: '/home/dashboard',
  settings: '/home/settings',
  reports: '/home/reports',
  accountHealth: '/home/tools/account-health',
  configReport: '/home/tools/config-report',
  alertsReport: '/home/tools/alerts-report',
  psClosureDocuments: '/home/tools/ps-closure-documents',
  tamWeeklyReport: '/home/tools/tam-weekly-report',
  tamMaintenanceWindow: '/home/tools/tam-maintenance-window',
  bulkTests: '/home/tools/bulk-tests',
  bulkOperations: '/home/tools/bulk-operations',
  alertsMigration: '/home/tools/alerts-migration',
  backupRestore: '/home/tools/backup-restore',
  dashboards: '/home/tools/dashboards',
  timeTracking: '/home/tools/time-tracking',
  apiTools: '/home/api-tools',
  support: '/home/support',
  diagnosticTool: '/home/diagnostic-tool',
  /** A customer's page is /home/customers/{organization id}. */
  customers: '/home/customers',
} as const;

export type AppPath = (typeof PATHS)[keyof typeof PATHS];

/** A customer's review pack (issue 60): /home/customers/{organization id}/review, as the router declares it. */
export const CUSTOMER_REVIEW_ROUTE = `${PATHS.customers}/:organizationId/review`;

/** The review pack's page of one customer. */
export const customerReviewPath = (organizationId: string) =>
  `${PATHS.customers}/${encodeURIComponent(organizationId)}/review`;
