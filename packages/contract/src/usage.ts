import { z } from 'zod';

/**
 * Tools that write usage events. The dashboard counts events per tool; the hours tool writes
 * quantities in hours per team.
 */
export const USAGE_TOOLS = [
  'health-check',
  'config-ca-ea',
  'config-epa',
  'alerts-report',
  'tam-activity',
  'ps-closure',
  'maintenance-window',
  'dashboard-cloned',
  'dashboard-report',
  'tests-created',
  'hours-logged',
  'review-pack',
] as const;

export type UsageTool = (typeof USAGE_TOOLS)[number];

export const TEAMS = ['TAM', 'PS'] as const;
export type Team = (typeof TEAMS)[number];

/** Everything the dashboard home shows, read in one call so all metrics load together. */
export const dashboardMetricsSchema = z.object({
  healthCheck: z.number().int().nonnegative(),
  caEaConfig: z.number().int().nonnegative(),
  epaConfig: z.number().int().nonnegative(),
  alertsReport: z.number().int().nonnegative(),
  provisionedDashboards: z.number().int().nonnegative(),
  provisionedTests: z.number().int().nonnegative(),
  tamActivity: z.number().int().nonnegative(),
  psClosure: z.number().int().nonnegative(),
  hours: z.object({ tam: z.number().nonnegative(), ps: z.number().nonnegative() }),
});

export type DashboardMetrics = z.infer<typeof dashboardMetricsSchema>;

export { EMPTY_DASHBOARD_METRICS } from './usage-words.js';
