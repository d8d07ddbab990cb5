import { REPORT_KINDS, type HealthCheck, type HealthFindings, type HealthStatus } from '@ce/contract';
import { barChartSvg, lineChartSvg } from '../../../../../report-kit/charts.js';
import { utcMinuteOf } from '../../../../../report-kit/dates.js';

/** HTML and PDF show this many rows of a table or evidence items of a check; the spreadsheet has them all. */
export const SHOWN_ROWS = 200;

export const STATUS_COLOURS: Record<HealthStatus, { fill: string; text: string }> = {
  pass: { fill: '#dcfce7', text: '#166534' },
  warn: { fill: '#fef3c7', text: '#92400e' },
  fail: { fill: '#fee2e2', text: '#991b1b' },
  unknown: { fill: '#e2e8f0', text: '#334155' },
};
const SEVERITY: Record<HealthStatus, number> = { fail: 0, warn: 1, unknown: 2, pass: 3 };

/** A time the findings hold, printed to the minute in UTC as every report prints one. */
export const when = utcMinuteOf;
export const title = (findings: HealthFindings) => `${REPORT_KINDS[findings.kind].label} account health check`;
export const cell = (value: string | number | null) =>
  value === null ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value;

/** The worst findings first: failures, then warnings, heavier checks first. */
export function worstChecks(findings: HealthFindings, count: number): HealthCheck[] {
  return findings.checks
    .filter((check) => check.status === 'fail' || check.status === 'warn')
    .sort((a, b) => SEVERITY[a.status] - SEVERITY[b.status] || b.weight - a.weight)
    .slice(0, count);
}

/**
 * A report's charts, drawn once per findings and kept while they are: its PDF and its HTML show the same two, and
 * drawing one is tens of milliseconds of the thread that also answers people.
 */
const drawn = new WeakMap<HealthFindings, { trend?: string | null; findings?: string }>();
const chartsOf = (findings: HealthFindings) => {
  let charts = drawn.get(findings);
  if (!charts) drawn.set(findings, (charts = {}));
  return charts;
};

export function scoreTrendSvg(findings: HealthFindings): string | null {
  const charts = chartsOf(findings);
  if (charts.trend !== undefined) return charts.trend;
  charts.trend =
    findings.changes.trend.length < 2
      ? null
      : lineChartSvg({
          title: 'Score over the stored runs',
          categories: findings.changes.trend.map((point) => point.at.slice(0, 10)),
          values: findings.changes.trend.map((point) => point.score),
          max: 100,
        });
  return charts.trend;
}

/** What a change's check is called (its title, never its id: the id is the product's, not the reader's). */
export const checkTitle = (findings: HealthFindings, checkId: string) =>
  findings.checks.find((check) => check.id === checkId)?.title ?? checkId;

/** Items found per check: a bar per check, each labelled by the check's title (they are names: the bars lie along). */
export function findingsChartSvg(findings: HealthFindings): string {
  const charts = chartsOf(findings);
  charts.findings ??= barChartSvg({
    title: 'Items found per check',
    categories: findings.checks.map((check) => check.title),
    series: [{ name: 'Items', values: findings.checks.map((check) => check.items.length) }],
    horizontal: true,
    width: 760,
    height: 80 + 28 * findings.checks.length,
  });
  return charts.findings;
}
