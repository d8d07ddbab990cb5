import { REVIEW_MESSAGES, type ReviewPackOptions, type SessionUser } from '@ce/contract';
import type { PlatformSession } from '@ce/platform-client';
import type { Db } from '../../core/database.js';
import type { SourcedEntry, TimelineQuery } from '../../core/timeline.js';
import { Markdown, mdLines, mdSafe } from '../../report-kit/markdown.js';
import { utcMinuteOf } from '../../report-kit/dates.js';
import { buildReviewPack } from './review-build.js';
import { renderReviewDeck } from './review-deck.js';
import { isUnknown, type ReviewPack } from './review-pack.js';
import { renderReviewPdf } from './review-pdf.js';
import { ReviewRepository } from './review.repository.js';

/** What a review pack is made from: the database, the requester, the platform session for what no watch stored. */
export interface MakeReviewPack {
  db: Db;
  session: PlatformSession;
  organization: { id: string; name: string };
  accountGroups: { aid: string }[];
  requester: SessionUser;
  options: ReviewPackOptions;
  now: Date;
  /** The customer's timeline (every module's work); none: the team's work is left out as unknown. */
  timeline?: (query: TimelineQuery) => Promise<SourcedEntry[]>;
  signal?: AbortSignal;
  progress?: (done: number, total: number) => Promise<void>;
  /** The pack's row in My Reports, which the Webex message links to (as a watch's message links its report). */
  reportUrl?: string;
}

export interface MadeReviewPack {
  pack: ReviewPack;
  files: { pptx: Buffer; pdf: Buffer; json: string };
  summary: Markdown;
}

/**
 * A review pack built and drawn (the report kind's work, and what a bench calls): the pack from the stored rows and
 * the platform, its deck, its PDF and its JSON. It saves no narrative: a job run again, or taken up again after a
 * crash, must not write an older narrative over one saved since (only PUT /api/review-narrative keeps one).
 */
export async function makeReviewPack(input: MakeReviewPack): Promise<MadeReviewPack> {
  const repository = new ReviewRepository(input.db);
  await input.progress?.(1, 4);
  const { pack } = await buildReviewPack(
    { repository, timeline: input.timeline ?? (async () => []) },
    { organization: input.organization, requester: input.requester, options: input.options, now: input.now },
    { session: input.session, accountGroups: input.accountGroups, signal: input.signal },
  );
  await input.progress?.(2, 4);
  // The PDF before the deck: the PDF thread's heap is given back when it ends, and the deck is then drawn in that
  // room; the other way round the deck's garbage was still held while the PDF was laid out (13 MB more at the peak).
  const pdf = await renderReviewPdf(pack);
  const pptx = await renderReviewDeck(pack);
  await input.progress?.(3, 4);
  return {
    pack,
    files: { pptx, pdf, json: JSON.stringify(pack, null, 2) },
    summary: reviewSummary(pack, input.reportUrl),
  };
}

/** The Webex message: the customer, the period, the top outcomes and actions, and the link to it in My Reports. */
export function reviewSummary(pack: ReviewPack, reportUrl?: string): Markdown {
  const summary = pack.executiveSummary.content;
  const list = (heading: string, items: string[]) =>
    items.length ? mdLines([mdSafe`**${heading}**`, ...items.map((item) => mdSafe`- ${item}`)]) : false;
  return mdLines([
    mdSafe`**Review pack** for **${pack.customer}**, ${pack.periodLabel} (figures up to ${utcMinuteOf(pack.cutOff)}): the deck, its PDF and its data follow.`,
    isUnknown(summary)
      ? mdSafe`Summary: ${summary.unknown}`
      : mdLines([list('Top outcomes', summary.outcomes.slice(0, 3)), list('Top actions', summary.actions.slice(0, 3))]),
    reportUrl ? mdSafe`${REVIEW_MESSAGES.openInMyReports} ${new Markdown(reportUrl)}` : false,
  ]);
}
