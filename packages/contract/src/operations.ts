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
  getDashboardMetrics: 'signedIn',
  listUsers: 'manageUsers',
} as const satisfies Record<string, Capability>;

export type OperationId = keyof typeof OPERATION_ACCESS;
