import type { ReportKind } from '@ce/contract';
import { alertsConfigGenerator } from './alerts-config.generator.js';
import { closureEndpointsGenerator, closureUnitsGenerator } from './closure/closure.generator.js';
import { epaConfigGenerator } from './config/epa-config.generator.js';
import { dashboardReportGenerator } from './dashboard-report.generator.js';
import { configSpreadsheetGenerator } from './config/spreadsheet.generator.js';
import { testsConfigGenerator } from './config/tests-config.generator.js';
import { healthCheckGenerator } from './health/health-check.generator.js';
import { maintenanceWindowGenerator } from './maintenance-window.generator.js';
import { tamActivityGenerator } from './tam-activity.generator.js';
import type { ReportGenerator } from './report-generator.js';

/** Every report kind's generator: the type makes a kind without one a compile error. */
const GENERATORS: Record<ReportKind, ReportGenerator> = {
  'ahc-v6': healthCheckGenerator('ahc-v6'),
  'ahc-v7': healthCheckGenerator('ahc-v7'),
  'ahc-ie': healthCheckGenerator('ahc-ie'),
  'alerts-config': alertsConfigGenerator,
  'epa-config': epaConfigGenerator,
  'tests-config-v7': testsConfigGenerator,
  'config-spreadsheet': configSpreadsheetGenerator,
  'maintenance-window': maintenanceWindowGenerator,
  'tam-activity': tamActivityGenerator,
  'closure-units': closureUnitsGenerator,
  'closure-endpoints': closureEndpointsGenerator,
  'dashboard-report': dashboardReportGenerator,
};

/** The generator of a stored kind, or undefined for a kind this version no longer makes. */
export function generatorOf(kind: string): ReportGenerator | undefined {
  return Object.hasOwn(GENERATORS, kind) ? GENERATORS[kind as ReportKind] : undefined;
}

/** Every kind, each of which gets its own worker. */
export const GENERATED_KINDS = Object.keys(GENERATORS) as ReportKind[];
