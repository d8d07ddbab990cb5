import { useState } from 'react';
import { isFinished, type ChangeSetItem, type RestoreRun } from '@ce/contract';
import { ChangeSetProgress, ItemStatus } from '../../../components/ui/change-set-progress';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { changeSetEndToast, useRunEndToast } from '../../../components/ui/run-end-toast';
import { Spinner } from '../../../components/ui/spinner';
import { TokenField } from '../../../components/ui/token-field';
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
  { id: 'action', header: 'Action', accessorFn: (item) => ACTIONS[item.action] ?? item.action },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (item) => item.status,
    cell: ({ row }) => <ItemStatus status={row.original.status} />,
  },
  { id: 'id', header: 'Id', accessorFn: (item) => item.resultId ?? '' },
  { id: 'outcome', header: 'Outcome', accessorFn: (item) => item.error ?? item.note ?? '' },
];

/** What a restore (or its undo) says when it ends: the words of every writing tool. */
const restoreEndToast = (run: RestoreRun) =>
  changeSetEndToast(run, { done: 'Restored', noun: 'restore', undo: run.kind === 'undo-restore' });

/** A restore (or its undo): progress, each item's outcome, the results files, Undo, and the end-of-run toast. */
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
  const { data: run } = useRestore(runId);
  const undo = useUndoRestore(customerTokenErrors('Failed to undo the restore'));
  const [undoToken, setUndoToken] = useState(token);
  const [undoTargetToken, setUndoTargetToken] = useState(targetToken);
  useRunEndToast(run, restoreEndToast);
  if (!run) return <Spinner label="Loading the restore" />;
  const finished = isFinished(run);
  return (
    <section className="space-y-3" aria-label="Restore">
      <h3 className="text-lg font-semibold">
        {run.kind === 'undo-restore' ? 'Undo of a restore' : 'Restore'} into {run.accountGroupName}
      </h3>
      <ChangeSetProgress label="Restore progress" totals={run.totals} />
      <p className="text-sm text-slate-600" data-testid="restore-status">
        {finished ? (run.status === 'failed' ? `Failed: ${run.error ?? ''}` : 'Finished') : 'In progress'} ·{' '}
        {run.totals.done} done · {run.totals.skipped} left as they were · {run.totals.failed} failed
      </p>
      <DataTable
        data={run.items}
        columns={COLUMNS}
        label="Restore results"
        empty="Nothing planned yet."
        getRowId={(item) => item.id}
      />
      {finished && (
        <div className="flex gap-3">
          <a className="text-brand-700 underline" href={restoreResultsUrl(run.id, 'xlsx')} download>
            Download results (XLSX)
          </a>
          <a className="text-brand-700 underline" href={restoreResultsUrl(run.id, 'csv')} download>
            Download results (CSV)
          </a>
        </div>
      )}
      {finished && run.kind === 'restore' && !run.undoneBy && run.totals.done > 0 && (
        <div className="space-y-2 rounded-md border border-slate-200 p-3">
          <TokenField label="OAuth Token" value={undoToken} onChange={(event) => setUndoToken(event.target.value)} />
          {run.targetOrganizationName && (
            <TokenField
              label={`OAuth Token of ${run.targetOrganizationName}`}
              value={undoTargetToken}
              onChange={(event) => setUndoTargetToken(event.target.value)}
            />
          )}
          <Button
            variant="danger"
            busy={undo.isPending}
            busyLabel="Starting the undo"
            onClick={() =>
              undo.mutate({ id: run.id, token: undoToken.trim() }, { onSuccess: (started) => onOpen(started.id) })
            }
          >
            Undo Restore
          </Button>
        </div>
      )}
    </section>
  );
}
