import { WATCH_MESSAGES, type ReviewPackOptions, type WatchRuns } from '@ce/contract';
import type { WatchRunScope } from '../../core/watch-run.js';
import { AppError } from '../../core/errors.js';
import type { ReportsService } from '../reports/reports.service.js';
import type { WatchRunsRepository } from './watch-runs.repository.js';
import type { WatchRow } from './watch.repository.js';

/**
 * A watch's duty of a monthly review pack (issue 60, decision 0031): the first run that ends in a new month, once
 * its health check is done (the month's last measurements stored), requests the previous month's pack for the
 * watch's organization and account groups, as its owner and with its token. Months are UTC ones, as a pack's
 * periods are.
 */

/** The review pack duty reads what the watch's health checks stored (and needs the role that runs them). */
export function requirePackWithHealth(runs: WatchRuns, monthlyReviewPack: boolean): void {
  if (monthlyReviewPack && runs === 'backup')
    throw new AppError(400, 'invalid_watch', WATCH_MESSAGES.packNeedsHealth, [
      { path: 'monthlyReviewPack', message: WATCH_MESSAGES.packNeedsHealth },
    ]);
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

type DutyWatch = Pick<WatchRow, 'id' | 'monthlyReviewPack' | 'runs'>;

/**
 * The pack a watch's run ending at `now` may owe: the previous month's, under a key naming the watch and the month
 * (one pack each); null without the duty or the health check. Pure.
 */
export function packDue(
  watch: DutyWatch,
  now: Date,
): { key: string; options: ReviewPackOptions; month: { from: Date; to: Date } } | null {
  if (!watch.monthlyReviewPack || watch.runs === 'backup') return null;
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return {
    key: `review-pack:${watch.id}:${iso(from).slice(0, 7)}`,
    // Cut off when it is asked for, so its numbers reproduce; the narrative is the one kept for the customer.
    options: {
      period: { kind: 'month', from: iso(from), to: iso(new Date(to.getTime() - 86_400_000)) },
      cutOff: now.toISOString(),
      keyTests: [],
    },
    month: { from, to },
  };
}

/**
 * Requests the pack the run owes, for a month the watch ran in (a month before its first run has nothing to
 * review), once per watch and month whoever asks again. A request that failed is left to the watch's next run
 * this month: the run itself is done.
 */
export async function requestDuePack(
  deps: {
    reports: Pick<ReportsService, 'startPackForWatch'>;
    runs: Pick<WatchRunsRepository, 'doneWithin'>;
    clock: () => Date;
    logger: { error(object: object, message: string): void };
  },
  watch: DutyWatch,
  run: WatchRunScope,
  token: string,
): Promise<string | null> {
  const due = packDue(watch, deps.clock());
  if (!due) return null;
  try {
    if (!(await deps.runs.doneWithin(watch.id, due.month.from, due.month.to))) return null;
    return await deps.reports.startPackForWatch(run, token, due.options, due.key);
  } catch (err) {
    deps.logger.error({ err, runId: run.id }, 'the review pack was not requested');
    return null;
  }
}
