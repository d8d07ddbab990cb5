import { reviewPackOptionsSchema, type ReviewPeriod } from '@ce/contract';
import { makeReviewPack, requesterAsAsked } from '../../../review/index.js';
import { fileStem, reportFiles, type ReportGenerator } from '../../report-generator.js';

/**
 * The review pack (decision 0038): built from what the toolkit stored (the watches' measurements, the health
 * checks, the timeline, the narrative) and, on the report's background lane, what only the platform answers
 * (Internet Insights outages, events, evidence links). Its files: the deck, its PDF, and the pack as JSON.
 */
export const reviewPackGenerator: ReportGenerator = async (context) => {
  const options = reviewPackOptionsSchema.parse(context.options);
  const { stored } = context;
  if (!stored) throw new Error('the review pack needs the stored records');
  const made = await makeReviewPack({
    db: stored.db,
    session: context.platform,
    organization: context.organization,
    accountGroups: context.accountGroups,
    requester: requesterAsAsked(stored.requester, context.options),
    options,
    now: context.now,
    timeline: stored.timeline,
    signal: context.signal,
    progress: context.progress,
    ...(context.reportUrl ? { reportUrl: context.reportUrl } : {}),
  });
  await context.progress(4, 4);
  // Named after the period it covers, not the day it was built: two packs of a customer are told apart.
  const built = fileStem('review-pack', context.organization.name, context.now);
  const named = `${built.slice(0, -'YYYY-MM-DD'.length)}${periodSlug(options.period)}`;
  return {
    summaryMarkdown: made.summary.text,
    artifacts: reportFiles(context, 'review-pack', made.files).map((artifact) => ({
      ...artifact,
      filename: artifact.filename.replace(built, named),
    })),
  };
};

/** The period in a file's name: "2026-Q4", "2026-11", or "2026-11-05-to-2026-12-01". */
export function periodSlug(period: ReviewPeriod): string {
  if (period.kind === 'month') return period.from.slice(0, 7);
  if (period.kind === 'quarter')
    return `${period.from.slice(0, 4)}-Q${Math.floor(Number(period.from.slice(5, 7)) / 3) + 1}`;
  return `${period.from}-to-${period.to}`;
}
