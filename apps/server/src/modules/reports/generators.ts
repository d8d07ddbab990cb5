import { reportKindSchema, type ReportKind } from '@ce/contract';
import { alertsConfigGenerator } from './kinds/alerts-config/generator.js';
import { closureEndpointsGenerator, closureUnitsGenerator } from './kinds/closure/generator.js';
import { epaConfigGenerator } from './kinds/config/epa-config.generator.js';
import { dashboardReportGenerator } from './kinds/dashboard-report/generator.js';
import { configSpreadsheetGenerator } from './kinds/config/spreadsheet.generator.js';
import { testsConfigGenerator } from './kinds/config/tests-config.generator.js';
import { healthCheckGenerator } from './kinds/health/generator.js';
import { maintenanceWindowGenerator } from './kinds/maintenance-window/generator.js';
import { reviewPackGenerator } from './kinds/review-pack/generator.js';
import { tamActivityGenerator } from './kinds/tam-activity/generator.js';
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
  'review-pack': reviewPackGenerator,
};

/** The generator of a stored kind, or undefined for a kind this version no longer makes. */
export function generatorOf(kind: string): ReportGenerator | undefined {
  const known = reportKindSchema.safeParse(kind);
  return known.success ? GENERATORS[known.data] : undefined;
}

/** Every kind, each of which gets its own worker. */
export const GENERATED_KINDS: readonly ReportKind[] = reportKindSchema.options;
