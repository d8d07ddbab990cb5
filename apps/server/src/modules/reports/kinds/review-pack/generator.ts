import { reviewPackOptionsSchema } from '@ce/contract';
import { makeReviewPack } from '../../../review/index.js';
import { reportFiles, type ReportGenerator } from '../../report-generator.js';

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
    requester: stored.requester,
    options,
    now: context.now,
    timeline: stored.timeline,
    signal: context.signal,
    progress: context.progress,
  });
  await context.progress(4, 4);
  return {
    summaryMarkdown: made.summary.text,
    artifacts: reportFiles(context, 'review-pack', made.files),
  };
};
