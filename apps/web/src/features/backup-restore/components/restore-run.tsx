import { isFinished, type ChangeSetItem, type RestoreRun } from '@ce/contract';
import { actionColumn, OUTCOME_COLUMNS } from '../../../components/run-panel/change-set-columns';
import type { ColumnDef } from '../../../components/ui/data-table';
import { changeSetEndToast } from '../../../components/ui/run-end-toast';
import { RunPanel } from '../../../components/run-panel/run-panel';
import { undoWords } from '../../../components/run-panel/undo-words';
import { customerTokenErrors } from '../../../lib/error-toasts';
import { restoreResultsUrl, useRestore, useUndoRestore } from '../api/restore';

const ACTIONS: Record<string, string> = {
  'restore-create': 'Create',
  'restore-update': 'Update',
  'restore-delete': 'Delete',
  'restore-keep': 'Leave',
};
const COLUMNS: ColumnDef<ChangeSetItem, unknown>[] = [
  { id: 'subject', header: 'Item', accessorFn: (item) => item.subject },
  actionColumn(ACTIONS),
  ...OUTCOME_COLUMNS,
];

/** What a restore (or its undo) says when it ends: the words of every writing tool. */
const restoreEndToast = (run: RestoreRun) =>
  changeSetEndToast(run, { done: 'Restored', noun: 'restore', undo: run.kind === 'undo-restore' });

/** A restore (or its undo) in the writing tools' run panel: each item's action and outcome, and Undo. */
export function RestoreRunPanel({
  runId,
  token,
  targetToken,
  onOpen,
}: {
  runId: string;
  token: string;
  /** The other organization's token, when the restore wrote there. */
  targetToken: string;
  onOpen: (id: string) => void;
}) {
  const { data: run, error } = useRestore(runId);
  const undo = useUndoRestore(customerTokenErrors('Failed to undo the restore'));
  return (
    <RunPanel
      run={run}
      error={error}
      loadingLabel="Loading the restore"
      failed={() => <p className="text-red-700">This restore could not be read.</p>}
      endToast={restoreEndToast}
      view={(run) => {
        const finished = isFinished(run);
        const other = run.targetOrganizationName;
        return {
          label: 'Restore',
          title: `${run.kind === 'undo-restore' ? 'Undo of a restore' : 'Restore'} into ${run.accountGroupName}`,
          level: 3,
          progressLabel: 'Restore progress',
          status: (
            <p className="text-sm text-slate-600" data-testid="restore-status">
              {finished ? (run.status === 'failed' ? `Failed: ${run.error ?? ''}` : 'Finished') : 'In progress'} ·{' '}
              {run.totals.done} done · {run.totals.skipped} left as they were · {run.totals.failed} failed
            </p>
          ),
          items: {
            data: run.items,
            columns: COLUMNS,
            label: 'Restore results',
            empty: 'Nothing planned yet.',
            getRowId: (item) => item.id,
          },
          resultsUrl: (format) => restoreResultsUrl(run.id, format),
          undo:
            finished && run.kind === 'restore' && !run.undoneBy && run.totals.done > 0
              ? {
                  label: 'Undo Restore',
                  description: undoWords(run.items),
                  confirmLabel: 'Undo Restore',
                  busyLabel: 'Starting the undo',
                  tokens: [
                    { label: 'OAuth Token', known: token, recent: 'backup-restore' },
                    ...(other
                      ? [{ label: `OAuth Token of ${other}`, known: targetToken, recent: 'backup-restore' as const }]
                      : []),
                  ],
                  pending: undo.isPending,
                  onConfirm: ([undoToken = '', undoTargetToken], done) =>
                    undo.mutate(
                      { id: run.id, token: undoToken, targetToken: other ? undoTargetToken : undefined },
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
