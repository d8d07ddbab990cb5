/**
 * bench:config - the 12-tab configuration workbook on the sandbox's large world (see
 * bench/report-bench.ts). Its reads: per account group the tests and each type's list, agents, alert rules
 * and each rule's detail, tags, suppression windows and each window's tests, dashboards, users, endpoint
 * agents and tests; usage and quotas for the organization.
 * Last line: `config: calls/min=<x.xx> wall/ideal=<y.yy> rss-mb=<n>`.
 */
import { configSpreadsheetGenerator } from '../apps/server/src/modules/reports/kinds/config/spreadsheet.generator.js';
import { benchReport } from './report-bench.js';

await benchReport({
  name: 'config',
  kind: 'config-spreadsheet',
  label: 'the 12-tab configuration workbook',
  generator: configSpreadsheetGenerator,
});
