import { REPORT_KINDS, type ReportKind } from './reports.js';
import type { OperationId } from './operations.js';

/**
 * The original services' calls (spec section 7), accepted beside the product's API under configurable
 * prefixes. Each is a translation onto one of the product's own operations (or a few, read in turn), named here
 * for the API document; none is a second implementation of a tool.
 */
export const COMPAT_MAPS_TO: Record<string, readonly OperationId[]> = {
  compatDashboardMetrics: ['getDashboardMetrics'],
  compatMetric: ['getDashboardMetrics'],
  compatAccountGroups: ['listAccountGroups'],
  compatAgents: ['listBulkAgents'],
  compatCreateTest: ['listAccountGroups', 'listBulkAgents', 'createBulkRun', 'getBulkRun'],
  compatGetReport: ['getReport'],
  compatRequestReport: ['listAccountGroups', 'createReport'],
  compatBackup: ['listAccountGroups', 'createBackups'],
  compatFeedback: ['sendFeedback'],
  compatBulkAccountGroups: ['listAccountGroups'],
  compatBulkAgents: ['listBulkAgents'],
  compatBulkCreateTest: ['listAccountGroups', 'listBulkAgents', 'createBulkRun', 'getBulkRun'],
  compatMaintenanceWindowReport: ['listAccountGroups', 'createReport', 'getReport', 'downloadReportArtifact'],
  compatGetDashboards: ['listGroupDashboards'],
  compatSaveDashboard: ['listAccountGroups', 'cloneDashboard'],
  compatAllDashboards: ['listCommunityDashboards'],
  compatVoteDashboard: ['voteDashboard'],
  compatPushDashboard: ['listAccountGroups', 'listCommunityDashboards', 'pushDashboard'],
  compatParseLogs: ['parseTimesheet'],
  compatCreateTasks: ['createTrackerTasks'],
};

/** Where each original service is mounted, unless configured otherwise (COMPAT_*_PREFIX). */
export const COMPAT_DEFAULT_PREFIXES = {
  reports: '/compat/reports/',
  dashboards: '/compat/dashboards/',
  tracker: '/compat/tracker/',
  api: '/compat/api/',
} as const;

/** The spec's words for an original call the layer cannot take (section 8). */
export const COMPAT_MESSAGES = {
  tokenMissing: 'OAuth token not provided',
  cecMismatch: 'cec must be the email of the signed-in user',
} as const;

/**
 * The report kind a `Mission` names: the kind's label as the spec's texts say it ("AHC v7", "EPA Config
 * Report", "TAMs Activity Report", ...) or its id ("ahc-v7"), case and spacing aside. Backups are
 * `'backup'` ("Backup", "Backup & Restore").
 */
export function missionKind(mission: string): ReportKind | 'backup' | null {
  const key = mission.trim().toLowerCase().replace(/\s+/g, ' ');
  if (['backup', 'backup & restore', 'backup and restore', 'backup restore', 'backup-restore'].includes(key))
    return 'backup';
  // A Map: the Mission is the caller's text, and a plain object would answer "__proto__" or "constructor".
  const aliases = new Map<string, ReportKind>([
    ['alerts report', 'alerts-config'],
    ['alerts configuration report', 'alerts-config'],
    ['maintenance window report', 'maintenance-window'],
    ['push dashboard', 'dashboard-report'],
    ['ahc-ie', 'ahc-ie'],
  ]);
  const alias = aliases.get(key);
  if (alias) return alias;
  for (const [kind, { label }] of Object.entries(REPORT_KINDS) as [ReportKind, { label: string }][])
    if (kind === key || label.toLowerCase() === key) return kind;
  return null;
}
