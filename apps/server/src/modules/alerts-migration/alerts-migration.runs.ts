import {
  ALERTS_MIGRATION_MESSAGES,
  migrationRunSchema,
  PATHS,
  type MigrationRun,
  type MigrationRunSummary,
} from '@ce/contract';
import type { ItemTotals } from '../../core/change-sets/repository.js';
import { changeItemToApi } from '../../core/change-sets/summaries.js';
import { runBasics, type RunKind, type RunRow } from '../../core/runs/run-service.js';
import { MIGRATION_KINDS, migrationInput, resultRows } from './kinds.js';
import { migrationInputSchema } from './plan.js';

const runFields = migrationRunSchema.pick({ status: true });

function summary(row: RunRow, totals: ItemTotals[]): MigrationRunSummary {
  const input = migrationInput(row);
  return {
    ...runBasics(row, totals),
    kind: row.kind,
    ...runFields.parse(row),
    targetOrganizationName: input.targetOrganizationName,
    sourceAccountGroupName: input.accountGroupName,
    targetAccountGroupNames: input.targets.map((target) => target.accountGroupName),
    mode: input.options.mode,
  };
}

/** Alerts migrations as the run service serves them: a migration and its undo, with a results file. */
export const MIGRATION_RUNS: RunKind<MigrationRun, MigrationRunSummary> = {
  kinds: MIGRATION_KINDS,
  timeline: 'alerts-migration',
  noun: 'migration',
  notFound: { code: 'migration_not_found', message: 'No such alerts migration' },
  summary,
  run: (row, items, totals) => ({ ...summary(row, totals), items: items.map(changeItemToApi) }),
  undo: {
    of: 'alerts-migration',
    notUndoable: 'Only an alerts migration can be undone here.',
    kind: 'undo-alerts-migration',
    targetTokenRequired: ALERTS_MIGRATION_MESSAGES.targetTokenRequired,
    nothingToUndo: (items) =>
      items.some((item) => item.status === 'done') ? null : ALERTS_MIGRATION_MESSAGES.nothingToUndo,
    /** Deletes what the migration created and puts back what it updated or moved, in its groups. */
    wroteInto(row) {
      const input = migrationInput(row);
      const targets = input.targets.map((target) => target.aid);
      return row.targetOrganizationId
        ? {
            accountGroups: [input.aid],
            target: { organizationName: input.targetOrganizationName, accountGroups: targets },
          }
        : { accountGroups: [input.aid, ...targets] };
    },
    input: (row) => ({ ...migrationInput(row) }),
  },
  // Both sides, as the person chose them: "Acme - Data Centers → Globex - Trading Platform" (an undo's too).
  timelineAccountGroups: (row) => {
    const input = migrationInputSchema.safeParse(row.input);
    if (!input.success) return undefined;
    const { accountGroupName, targets } = input.data;
    return [`${accountGroupName} → ${targets.map((target) => target.accountGroupName).join(', ')}`];
  },
  results: { name: 'alerts-migration', rows: resultRows },
  notifications: {
    source: 'alerts-migration',
    label: (kind) => (kind === 'alerts-migration' ? 'Alerts migration' : 'Undo of an alerts migration'),
    where: "the migration's results",
    path: () => PATHS.alertsMigration,
  },
};
