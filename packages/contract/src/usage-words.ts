// Apart from the schemas (usage.ts): the dashboard shows these before its numbers come, without the schema library.
import type { DashboardMetrics } from './usage.js';

export const EMPTY_DASHBOARD_METRICS: DashboardMetrics = {
  healthCheck: 0,
  caEaConfig: 0,
  epaConfig: 0,
  alertsReport: 0,
  provisionedDashboards: 0,
  provisionedTests: 0,
  tamActivity: 0,
  psClosure: 0,
  hours: { tam: 0, ps: 0 },
};
