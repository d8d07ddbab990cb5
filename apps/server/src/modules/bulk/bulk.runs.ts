import {
  BULK_RUN_KINDS,
  BULK_RUN_LABELS,
  bulkRunItemSchema,
  bulkRunSchema,
  PATHS,
  type BulkRun,
  type BulkRunItem,
  type BulkRunKind,
  type BulkRunSummary,
} from '@ce/contract';
import type { ChangeItemRow, ItemTotals } from '../../core/change-sets/repository.js';
import { runBasics, type RunKind, type RunRow } from '../../core/runs/run-service.js';
import { storedInput } from './bulk-input.js';

/** The kinds the bulk-operations screens show together. */
export const VISIBLE_KINDS: Record<'tests' | 'agents' | 'labels' | 'users', BulkRunKind[]> = {
  tests: ['tests', 'undo-tests'],
  agents: ['agents'],
  labels: ['labels'],
  users: ['users'],
};

const itemFields = bulkRunItemSchema.pick({ action: true, status: true });
const runFields = bulkRunSchema.pick({ kind: true, status: true });

function itemToApi(item: ChangeItemRow): BulkRunItem {
  return {
    id: item.id,
    position: item.position,
    ...itemFields.parse(item),
    templateIndex: item.inputIndex,
    aid: item.aid,
    accountGroupName: item.accountGroupName,
    subject: item.subject,
    resultId: item.resultId,
    note: item.note,
    error: item.error,
  };
}

function summaryToApi(row: RunRow, totals: ItemTotals[]): BulkRunSummary {
  return {
    ...runBasics(row, totals),
    ...runFields.parse(row),
    accountGroups: storedInput(row).accountGroups,
    executionTimeMs:
      row.startedAt && row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.startedAt.getTime()) : null,
  };
}

/** The bulk tools' runs as the run service serves them: tests, agents, labels, users, and the undo of tests. */
export const BULK_RUNS: RunKind<BulkRun, BulkRunSummary> = {
  kinds: BULK_RUN_KINDS,
  timeline: 'bulk',
  noun: 'run',
  notFound: {
    code: 'run_not_found',
    message: 'No such bulk run',
    otherTool: "No such bulk run: that id is another tool's change (a restore or an alerts migration).",
  },
  summary: summaryToApi,
  run(row, items, totals) {
    const input = storedInput(row);
    return {
      ...summaryToApi(row, totals),
      templates: input.kind === 'tests' ? input.templates : [],
      items: items.map(itemToApi),
    };
  },
  undo: {
    of: 'tests',
    notUndoable: 'Only a bulk tests run can be undone.',
    kind: 'undo-tests',
    /** A tests run's undo deletes exactly the tests it created. */
    nothingToUndo: (items) =>
      items.some((item) => item.action === 'create-test' && item.status === 'done' && item.resultId)
        ? null
        : 'This run created no tests.',
    wroteInto: (row) => ({ accountGroups: storedInput(row).accountGroups.map((group) => group.aid) }),
    input: (row) => ({ accountGroups: storedInput(row).accountGroups }),
  },
  notifications: {
    source: 'bulk',
    label: (kind) => BULK_RUN_LABELS[runFields.shape.kind.parse(kind)],
    where: "the run's results",
    path: (kind) =>
      VISIBLE_KINDS.tests.includes(runFields.shape.kind.parse(kind)) ? PATHS.bulkTests : PATHS.bulkOperations,
  },
};
