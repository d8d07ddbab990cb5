import { isFinished, type ChangeSetItem, type MigrationRun } from '@ce/contract';
import { actionColumn, OUTCOME_COLUMNS } from '../../../components/run-panel/change-set-columns';
import { undoWords } from '../../../components/run-panel/undo-words';
import { Button } from '../../../components/ui/button';
import type { ColumnDef } from '../../../components/ui/data-table';
import { changeSetEndToast } from '../../../components/ui/run-end-toast';
import { RunMessage } from '../../../components/run-panel/run-message';
import { RunPanel } from '../../../components/run-panel/run-panel';
import { resultsUrl, useMigration } from '../api/run';
import { useUndoMigration } from '../api/undo';
import { customerTokenErrors as migrationErrors } from '../../../lib/error-toasts';

const ACTION_WORDS: Record<string, string> = {
  'create-rule': 'Create rule',
  'update-rule': 'Update rule',
  'delete-rule': 'Delete rule',
  'keep-rule': 'Leave rule',
  'create-window': 'Create window',
  'delete-window': 'Delete window',
  'keep-window': 'Leave window',
};

const COLUMNS: ColumnDef<ChangeSetItem, unknown>[] = [
  { id: 'subject', header: 'Name', accessorFn: (item) => item.subject },
  { id: 'group', header: 'Account group', accessorFn: (item) => item.accountGroupName },
  actionColumn(ACTION_WORDS),
  ...OUTCOME_COLUMNS,
];

/** What one item of a migration is, as its undo counts them: "2 alert rules", "1 maintenance window". */
const migrationNoun = (item: ChangeSetItem) => (item.action.endsWith('-window') ? 'maintenance window' : 'alert rule');

/** What a migration (or its undo) says when it ends: the words of every writing tool. */
const migrationEndToast = (run: MigrationRun) =>
  changeSetEndToast(run, { done: 'Migrated', noun: 'migration', undo: run.kind === 'undo-alerts-migration' });

/** A migration (or its undo) in the writing tools' run panel: its items' actions and new ids, and Undo. */
export function MigrationRunPanel({
  runId,
  tokens,
  onOpen,
  onNew,
}: {
  runId: string;
  /** The tokens the page still holds, to undo without typing them again. */
  tokens: { token: string; targetToken: string };
  onOpen: (id: string) => void;
  onNew: () => void;
}) {
  const { data: run, error } = useMigration(runId);
  const undo = useUndoMigration(migrationErrors('Failed to undo the migration'));
  return (
    <RunPanel
      run={run}
      error={error}
      loadingLabel="Loading the migration"
      failed={() => <p className="text-red-700">This migration could not be read.</p>}
      endToast={migrationEndToast}
      view={(run) => {
        const finished = isFinished(run);
        const other = run.targetOrganizationName;
        return {
          label: 'Migration',
          title: `${run.kind === 'undo-alerts-migration' ? 'Undo of a migration' : `Migration (${run.mode})`} from ${run.sourceAccountGroupName}`,
          aside: (
            <Button className="ml-auto" onClick={onNew}>
              New Migration
            </Button>
          ),
          progressLabel: 'Migration progress',
          status: (
            <p className="text-sm text-slate-600" data-testid="migration-status">
              {finished ? (run.status === 'failed' ? `Failed: ${run.error ?? ''}` : 'Finished') : 'In progress'} ·{' '}
              {run.totals.done} done · {run.totals.skipped} left as they were · {run.totals.failed} failed ·{' '}
              {run.totals.pending} to go
            </p>
          ),
          details: (
            <>
              {run.undoneBy && (
                <p className="text-sm">
                  This migration was undone.{' '}
                  <Button variant="link" onClick={() => onOpen(run.undoneBy ?? '')}>
                    See the undo
                  </Button>
                </p>
              )}
              <RunMessage message={run.message} />
            </>
          ),
          items: {
            data: run.items,
            columns: COLUMNS,
            label: 'Migration results',
            empty: 'Nothing planned yet.',
            filterLabel: 'Filter results',
            getRowId: (item) => item.id,
            rowProps: (item) => ({ 'data-status': item.status }),
            maxHeight: 480,
          },
          resultsUrl: (format) => resultsUrl(run.id, format),
          undo:
            finished && run.kind === 'alerts-migration' && !run.undoneBy && run.totals.done > 0
              ? {
                  label: 'Undo Migration',
                  description: undoWords(run.items, migrationNoun),
                  confirmLabel: 'Undo Migration',
                  busyLabel: 'Starting the undo',
                  tokens: [
                    { label: 'OAuth Token', known: tokens.token, recent: 'alerts-migration' },
                    ...(other
                      ? [
                          {
                            label: `OAuth Token of ${other}`,
                            known: tokens.targetToken,
                            recent: 'alerts-migration' as const,
                          },
                        ]
                      : []),
                  ],
                  pending: undo.isPending,
                  onConfirm: ([token = '', targetToken], done) =>
                    undo.mutate(
                      { id: run.id, token, targetToken: other ? targetToken : undefined },
                      {
                        onSuccess: (started) => {
                          done();
                          onOpen(started.id);
                        },
                      },
                    ),
                }
              : undefined,
        };
      }}
    />
  );
}
