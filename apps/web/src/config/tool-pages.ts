import { PATHS, type AppPath } from '@ce/contract';

export interface ToolPageInfo {
  title: string;
  description: string;
  badge?: string;
}

/** Title and one sentence for each page; a page shows only this until its tool is built. */
export const TOOL_PAGES: Partial<Record<AppPath, ToolPageInfo>> = {
  [PATHS.reports]: {
    title: 'My Reports',
    description: 'Every report you requested, its progress, and its files to download once it is done.',
  },
  [PATHS.accountHealth]: {
    title: 'Account Health Check',
    description:
      'Checks a customer organization against the adoption thresholds (inactive users, alert activity, unused tests, sparse dashboards) and delivers the findings.',
  },
  [PATHS.configReport]: {
    title: 'Configuration Reports',
    description:
      'Documents how account groups are configured: endpoint agents, cloud and enterprise agent tests, and a 12-tab spreadsheet.',
  },
  [PATHS.alertsReport]: {
    title: 'Alerts Configuration Report',
    description: 'Lists every alert rule of the chosen account groups with its conditions, tests and notifications.',
    badge: 'Beta',
  },
  [PATHS.psClosureDocuments]: {
    title: 'PS Closure Documents',
    description: 'Produces the closure documents of a professional-services engagement, for units and for endpoints.',
  },
  [PATHS.tamWeeklyReport]: {
    title: 'TAM Activity Report',
    description: "Summarises what happened in a customer's organization over the last 7, 14 or 21 days.",
    badge: 'Beta',
  },
  [PATHS.tamMaintenanceWindow]: {
    title: 'Maintenance Window Report',
    description:
      "Shows an organization's alert suppression windows: what they cover, when they run, and which are active.",
    badge: 'Beta',
  },
  [PATHS.bulkTests]: {
    title: 'Bulk Test Creator',
    description:
      'Creates the same tests in many account groups at once, from templates, without exceeding the rate limit.',
    badge: 'Alpha',
  },
  [PATHS.bulkOperations]: {
    title: 'Bulk Operations',
    description: 'Bulk tests, labels, users and duplicate-agent clean-up across many account groups.',
  },
  [PATHS.alertsMigration]: {
    title: 'Alerts Migration',
    description: 'Moves alert rules from one account group to another.',
  },
  [PATHS.backupRestore]: {
    title: 'Backup & Restore',
    description: 'Saves the configuration of an account group so it can be restored later.',
  },
  [PATHS.dashboards]: {
    title: 'Dashboards',
    description:
      'Clone a dashboard into the community gallery, vote for the best ones, and push them into customer account groups.',
    badge: 'Beta',
  },
  [PATHS.timeTracking]: {
    title: 'Time Tracking',
    description: 'Turns a spreadsheet of hours into tasks in the CRM, grouped by engagement.',
  },
  [PATHS.apiTools]: {
    title: 'API Tools',
    description: 'Helpers for working with the monitoring platform API on behalf of a customer.',
  },
  [PATHS.support]: {
    title: 'PCAP Support',
    description: 'Helps the support team collect and share packet captures from customer agents.',
  },
  [PATHS.diagnosticTool]: {
    title: 'Diagnostic Tool',
    description: 'Runs diagnostics against a customer organization to speed up support cases.',
  },
};
