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

/** The generators that exist; a kind is accepted only when it has one (REPORT_KINDS.available says the same). */
const GENERATORS: Partial<Record<ReportKind, ReportGenerator>> = {
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

export function generatorOf(kind: ReportKind): ReportGenerator | undefined {
  return GENERATORS[kind];
}

export function hasGenerator(kind: ReportKind): boolean {
  return GENERATORS[kind] !== undefined;
}

/** The kinds that have a generator, each of which gets its own worker. */
export const GENERATED_KINDS = (Object.keys(GENERATORS) as ReportKind[]).filter(hasGenerator);
