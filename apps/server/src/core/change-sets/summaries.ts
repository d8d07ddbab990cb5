import { z } from 'zod';
import { CHANGE_ITEM_STATUSES } from '@ce/contract';
import type { ChangeItemRow, ItemTotals } from './repository.js';

export interface ChangeSetTotals {
  total: number;
  pending: number;
  done: number;
  skipped: number;
  failed: number;
}

/** A change set's items counted by outcome (running ones count as pending). */
export function changeSetTotals(rows: ItemTotals[], runId: string): ChangeSetTotals {
  const count = (status: string) =>
    rows.filter((row) => row.runId === runId && row.status === status).reduce((sum, row) => sum + row.count, 0);
  const pending = count('pending') + count('running');
  const [done, skipped, failed] = [count('done'), count('skipped'), count('failed')];
  return { total: pending + done + skipped + failed, pending, done, skipped, failed };
}

/** What a change set that ended badly tells its requester: failed, or some of its items failed. */
export interface ChangeSetProblem {
  /** The change set's kind, for the caller to say where it is shown. */
  kind: string;
  key: string;
  outcome: 'failed' | 'partly-failed';
  title: string;
  message: string;
  at: string;
}

/**
 * The notifications of change sets that ended badly: `label` names a set's kind ("Create tests"),
 * `where` says where each failure's reason is ("the run's results").
 */
export function changeSetProblems(
  rows: {
    id: string;
    kind: string;
    status: string;
    error: string | null;
    organizationName: string;
    finishedAt: Date | null;
  }[],
  totals: ItemTotals[],
  label: (kind: string) => string,
  where: string,
): ChangeSetProblem[] {
  return rows.flatMap((row): ChangeSetProblem[] => {
    if (!row.finishedAt) return [];
    const at = row.finishedAt.toISOString();
    if (row.status === 'failed')
      return [
        {
          kind: row.kind,
          key: `${row.id}:failed`,
          outcome: 'failed',
          title: `${label(row.kind)} failed`,
          message: `${row.organizationName}: ${row.error ?? 'The run stopped.'}`,
          at,
        },
      ];
    const { done, failed, total } = changeSetTotals(totals, row.id);
    // Not one item done: failed, as its panel, end toast and the customer's page say it (`runOutcome`).
    if (done === 0)
      return [
        {
          kind: row.kind,
          key: `${row.id}:failed`,
          outcome: 'failed',
          title: `${label(row.kind)} failed`,
          message:
            total === 1
              ? `${row.organizationName}: its one item was not done; the reason is in ${where}.`
              : `${row.organizationName}: not one of its ${total} items was done; each reason is in ${where}.`,
          at,
        },
      ];
    return [
      {
        kind: row.kind,
        key: `${row.id}:partly-failed`,
        outcome: 'partly-failed',
        title: `${label(row.kind)}: ${failed} of ${total} failed`,
        message: `${row.organizationName}: each failure and its reason are in ${where}.`,
        at,
      },
    ];
  });
}

/** An item as the API shows it (`changeSetItemSchema`). */
export function changeItemToApi(item: ChangeItemRow) {
  return {
    id: item.id,
    position: item.position,
    phase: item.phase,
    action: item.action,
    aid: item.aid,
    accountGroupName: item.accountGroupName,
    subject: item.subject,
    status: z.enum(CHANGE_ITEM_STATUSES).parse(item.status),
    resultId: item.resultId,
    note: item.note,
    error: item.error,
  };
}
