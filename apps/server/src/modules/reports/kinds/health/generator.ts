import {
  AHC_TABLES,
  ahcIeOptionsSchema,
  healthFindingsSchema,
  profileOf,
  type HealthFindings,
  type HealthKind,
} from '@ce/contract';
import { CONTENT_TYPES, reportFiles, type ReportGenerator } from '../../report-generator.js';
import { changesSince } from './changes.js';
import { runChecks, scoreOf } from './checks.js';
import { measurementsOf } from './measurements.js';
import { readHealth } from './read.js';
import { healthHtml } from './render/html.js';
import { healthSummaryMarkdown } from './render/markdown.js';
import { healthPdf } from './render/pdf.js';
import { healthWorkbook } from './render/workbook.js';
import { buildTables } from './tables.js';

/** Every health check writes its findings under this name: the next run of the kind compares with it. */
export const FINDINGS_FILE = 'findings.json';
/** The score trend covers this many runs (this one included). */
export const TREND_RUNS = 12;
/**
 * Alerts that started in this many days are read (beyond the platform's default of 90): an alert active
 * for months still weighs in the share of the last 30 days.
 */
export const ALERT_LOOKBACK_DAYS = 120;

/** Earlier findings of this kind for this organization, newest first; files that do not parse are skipped. */
async function earlierFindings(history: Parameters<ReportGenerator>[0]['history']): Promise<HealthFindings[]> {
  if (!history) return [];
  const files = await history(FINDINGS_FILE, TREND_RUNS - 1);
  return files.flatMap((file) => {
    try {
      const parsed = healthFindingsSchema.safeParse(JSON.parse(file.content.toString('utf8')));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The account health check of one kind: AHC v6 (legacy thresholds), AHC v7 (current thresholds) and
 * AHC-IE (current thresholds, only the tables chosen, its alert activity over the chosen days). All read
 * the platform through v7.
 */
export function healthCheckGenerator(
  kind: HealthKind,
  /** `measured: false` leaves the measured checks out (bench:ahc measures the configuration reads alone). */
  options: { measured?: boolean } = {},
): ReportGenerator {
  return async (context) => {
    const profile = profileOf(kind);
    const ie = kind === 'ahc-ie' ? ahcIeOptionsSchema.parse(context.options) : null;
    const activityDays = ie?.daysRange ?? profile.alertsCountDays;
    const reading = await readHealth({
      session: context.platform,
      accountGroups: context.accountGroups,
      now: context.now,
      alertDays: {
        started: Math.max(ALERT_LOOKBACK_DAYS, profile.trendingIssueDays, activityDays),
        cleared: Math.max(profile.alertsActiveDays, activityDays),
      },
      measured: options.measured ?? kind !== 'ahc-v6',
      progress: context.progress,
      signal: context.signal,
    });
    const checks = runChecks(reading.input, profile);
    const score = scoreOf(checks);
    const earlier = await earlierFindings(context.history);
    const previous = earlier[0] ?? null;
    const generatedAt = context.now.toISOString();
    const measurements = measurementsOf(reading.input);
    const findings: HealthFindings = {
      kind,
      organization: context.organization,
      accountGroups: context.accountGroups,
      generatedAt,
      profile,
      ...(ie ? { daysRange: ie.daysRange } : {}),
      score,
      checks,
      tables: buildTables(reading, ie?.tables ?? AHC_TABLES, context.now, activityDays),
      changes: {
        previousAt: previous?.generatedAt ?? null,
        items: changesSince(previous, checks),
        trend: [
          ...earlier
            .slice()
            .reverse()
            .map((run) => ({ at: run.generatedAt, score: run.score.value })),
          { at: generatedAt, score: score.value },
        ],
      },
      ...(measurements ? { measurements } : {}),
    };
    const [pdf, xlsx] = [await healthPdf(findings), await healthWorkbook(findings)];
    const total = context.accountGroups.length + 1;
    await context.progress(total, total);
    return {
      summaryMarkdown: healthSummaryMarkdown(findings),
      // The kit names the files `<kind>-<organization>-<date>.<type>`; findings.json keeps its own name (the next
      // run of the kind reads it by that name).
      artifacts: [
        ...reportFiles(context, kind, { pdf, xlsx }),
        {
          filename: FINDINGS_FILE,
          contentType: CONTENT_TYPES.json,
          content: Buffer.from(JSON.stringify(findings, null, 2)),
        },
        ...reportFiles(context, kind, { html: healthHtml(findings) }),
      ],
    };
  };
}
