import type { Capability } from './roles.js';

/**
 * Who may call each API operation, by operationId. The server refuses to register a route whose
 * operationId is missing here, and the role-walk test reads the same table.
 */
export const OPERATION_ACCESS = {
  getAppInfo: 'public',
  getSession: 'signedIn',
  login: 'public',
  logout: 'signedIn',
  completeNewPassword: 'public',
  requestPasswordReset: 'public',
  confirmPasswordReset: 'public',
  startSso: 'public',
  finishSso: 'public',
  changePassword: 'signedIn',
  listMySessions: 'signedIn',
  endMySession: 'signedIn',
  getDashboardMetrics: 'signedIn',
  listMyNotifications: 'signedIn',
  listUsers: 'manageUsers',
  inviteUser: 'manageUsers',
  updateUser: 'manageUsers',
  listAuditLog: 'manageUsers',
  listAccountGroups: 'customerToken',
  createReport: 'healthCheck',
  listReports: 'signedIn',
  getReport: 'signedIn',
  downloadReportArtifact: 'signedIn',
  rerunReport: 'healthCheck',
  listBulkAgents: 'tools',
  listBulkTests: 'tools',
  listBulkRoles: 'tools',
  planBulkTests: 'tools',
  scanDuplicateAgents: 'tools',
  createBulkRun: 'tools',
  listBulkRuns: 'tools',
  getBulkRun: 'tools',
  undoBulkRun: 'tools',
  listGroupDashboards: 'tools',
  cloneDashboard: 'tools',
  listCommunityDashboards: 'tools',
  getDashboardTemplate: 'tools',
  getDashboardImage: 'tools',
  voteDashboard: 'tools',
  reviewDashboard: 'tools',
  setDashboardStatus: 'reviewDashboards',
  planDashboardPush: 'tools',
  pushDashboard: 'tools',
} as const satisfies Record<string, Capability>;

export type OperationId = keyof typeof OPERATION_ACCESS;
