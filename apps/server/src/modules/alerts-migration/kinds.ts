import { z } from 'zod';
import { PATHS } from '@ce/contract';
import type { WebexDeliveries } from '../../adapters/webex-delivery.js';
import { undoKind, type ChangeSetTools } from '../../core/change-sets/handlers.js';
import type { ChangeItemRow, ChangeSetRow } from '../../core/change-sets/repository.js';
import { recordsOf } from '../../core/json.js';
import { resultsWorkbook, type ResultRow } from '../../report-kit/change-set-results.js';
import { mdLines, mdSafe } from '../../report-kit/markdown.js';
import { MIGRATION_ACTIONS } from './actions.js';
import { changeItems, migrationInputSchema, planMigration, type MigrationInput } from './plan.js';

export const MIGRATION_KINDS = ['alerts-migration', 'undo-alerts-migration'];

const jsonObject = z.record(z.string(), z.unknown());

/** A migration's stored input (an undo keeps its migration's, with the migration's id). */
export function migrationInput(run: { input: unknown }): MigrationInput {
  return migrationInputSchema.parse(jsonObject.parse(run.input));
}

const ACTION_WORDS: Record<string, string> = {
  'create-rule': 'Create',
  'update-rule': 'Update',
  'delete-rule': 'Delete',
  'keep-rule': 'Leave',
  'create-window': 'Create',
  'delete-window': 'Delete',
  'keep-window': 'Leave',
};

/** The results file's rows: one per item, what it did and why, with the references it left behind. */
export function resultRows(items: ChangeItemRow[]): ResultRow[] {
  return items.map((item) => {
    const details = item.details ?? {};
    const dropped = recordsOf(details.dropped);
    return {
      accountGroup: item.accountGroupName,
      kind: item.action.endsWith('window') ? 'Suppression window' : 'Alert rule',
      name: item.subject,
      action: ACTION_WORDS[item.action] ?? item.action,
      status: item.status,
      id: item.resultId,
      note: item.note,
      error: item.error,
      dropped: dropped
        .map((reference) => `${String(reference.name ?? '')}: ${String(reference.reason ?? '')}`)
        .join('; '),
    };
  });
}

/**
 * The Webex message a finished migration (or undo) sends its requester, with the results file: once, and tried again
 * while Webex does not take it; one given up is told on the run's page and in notifications.
 */
async function deliverSummary(
  deliveries: WebexDeliveries,
  email: string,
  run: ChangeSetRow,
  items: ChangeItemRow[],
): Promise<void> {
  const input = migrationInput(run);
  const count = (status: string) => items.filter((item) => item.status === status).length;
  const undo = run.kind === 'undo-alerts-migration';
  const targets = input.targets.map((target) => target.accountGroupName).join(', ');
  const markdown = mdLines([
    undo
      ? mdSafe`**Alerts migration undone** for ${run.organizationName}`
      : mdSafe`**Alerts migration (${input.options.mode})** for ${run.organizationName}`,
    mdSafe`From ${input.accountGroupName} to ${targets}${input.targetOrganizationName ? ` (${input.targetOrganizationName})` : ''}`,
    mdSafe`Done: ${count('done')} · Left as they were: ${count('skipped')} · Failed: ${count('failed')}`,
    run.error ? mdSafe`The run stopped: ${run.error}` : null,
    mdSafe`Each item, its new id and any reference left behind are in the attached results.`,
  ]);
  const file = {
    filename: `alerts-migration-${run.id.slice(0, 8)}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    content: await resultsWorkbook('Results', resultRows(items)),
  };
  await deliveries.deliver(`change-set:${run.id}:summary`, email, markdown.text, file, {
    subject: `change-set:${run.id}`,
    userId: run.userId,
    notice: {
      source: 'alerts-migration',
      path: PATHS.alertsMigration,
      title: `${undo ? 'Undo of an alerts migration' : 'Alerts migration'}: summary not sent to Webex`,
      about: run.organizationName,
      after: ". Its results are on the run's page.",
      capabilities: ['tools'],
    },
  });
}

export interface MigrationKindDependencies {
  deliveries: WebexDeliveries | null;
  requesterEmail(userId: string): Promise<string>;
}

/** Alerts migration on the change-set engine: its kinds (the migration and its undo) and its actions. */
export function alertsMigrationChangeSets(deps: MigrationKindDependencies): ChangeSetTools {
  const summary = async (run: ChangeSetRow, items: ChangeItemRow[]) => {
    if (deps.deliveries) await deliverSummary(deps.deliveries, await deps.requesterEmail(run.userId), run, items);
  };
  return {
    kinds: {
      'alerts-migration': {
        plan: async (run, sessions) => {
          const input = migrationInput(run);
          return changeItems(await planMigration(input, sessions), input);
        },
        summary,
      },
      'undo-alerts-migration': { ...undoKind(() => MIGRATION_ACTIONS), summary },
    },
    actions: MIGRATION_ACTIONS,
  };
}
