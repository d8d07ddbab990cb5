/**
 * bench:ahc - an AHC v7 report on the sandbox's large world (see bench/report-bench.ts). Its reads: per
 * account group the users with roles, agents, tests, HTTP server and page-load settings, alert rules,
 * alerts started, alerts cleared and dashboards; usage and quotas for the organization.
 * The measured checks' reads (a week of results of each of 10,000 tests) are bench:measured's, on groups holding
 * 500 tests: this bench leaves them out. Last line: `ahc: calls/min=<x.xx> wall/ideal=<y.yy> rss-mb=<n>`.
 */
import { healthCheckGenerator } from '../apps/server/src/modules/reports/kinds/health/generator.js';
import { benchReport } from './report-bench.js';

await benchReport({
  name: 'ahc',
  kind: 'ahc-v7',
  label: 'AHC v7',
  generator: healthCheckGenerator('ahc-v7', { measured: false }),
});
