import type { DashboardMetrics, UsageTool } from '@ce/contract';
import type { UsageRepository } from './usage.repository.js';

/** Turns usage events into the dashboard's counters. */
export class UsageService {
  constructor(
    private readonly repository: UsageRepository,
    private readonly provisionedTestsBaseline: number,
  ) {}

  record(event: Parameters<UsageRepository['record']>[0]): Promise<void> {
    return this.repository.record(event);
  }

  async metrics(): Promise<DashboardMetrics> {
    const totals = await this.repository.totals();
    const count = (tool: UsageTool) =>
      Math.round(totals.filter((row) => row.tool === tool).reduce((sum, row) => sum + row.total, 0));
    const hours = (team: string) =>
      totals.filter((row) => row.tool === 'hours-logged' && row.team === team).reduce((sum, row) => sum + row.total, 0);
    return {
      healthCheck: count('health-check'),
      caEaConfig: count('config-ca-ea'),
      epaConfig: count('config-epa'),
      alertsReport: count('alerts-report'),
      provisionedDashboards: count('dashboard-cloned'),
      provisionedTests: this.provisionedTestsBaseline + count('tests-created'),
      tamActivity: count('tam-activity'),
      psClosure: count('ps-closure'),
      hours: { tam: round2(hours('TAM')), ps: round2(hours('PS')) },
    };
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100;
