import { useState } from 'react';
import { isFinished, type ChangeSetItem, type MigrationRun } from '@ce/contract';
import { ChangeSetProgress, ItemStatus } from '../../../components/ui/change-set-progress';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Spinner } from '../../../components/ui/spinner';
import { changeSetEndToast, useRunEndToast } from '../../../components/ui/run-end-toast';
import { TokenField } from '../../../components/ui/token-field';
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
  { id: 'action', header: 'Action', accessorFn: (item) => ACTION_WORDS[item.action] ?? item.action },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (item) => item.status,
    cell: ({ row }) => <ItemStatus status={row.original.status} />,
  },
  { id: 'id', header: 'Id', accessorFn: (item) => item.resultId ?? '' },
  { id: 'outcome', header: 'Outcome', accessorFn: (item) => item.error ?? item.note ?? '' },
];

/** What a migration (or its undo) says when it ends: the words of every writing tool. */
const migrationEndToast = (run: MigrationRun) =>
  changeSetEndToast(run, { done: 'Migrated', noun: 'migration', undo: run.kind === 'undo-alerts-migration' });

/** A migration (or its undo): live progress, each item's outcome and new id, the results file, and Undo. */
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
  const { data: run, isError } = useMigration(runId);
  const undo = useUndoMigration(migrationErrors('Failed to undo the migration'));
  const [token, setToken] = useState(tokens.token);
  const [targetToken, setTargetToken] = useState(tokens.targetToken);
  useRunEndToast(run, migrationEndToast);
  if (isError) return <p className="text-red-700">This migration could not be read.</p>;
  if (!run) return <Spinner label="Loading the migration" />;
  const finished = isFinished(run);
  const undoable = finished && run.kind === 'alerts-migration' && !run.undoneBy && run.totals.done > 0;
  return (
    <section className="space-y-4" aria-label="Migration">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">
          {run.kind === 'undo-alerts-migration' ? 'Undo of a migration' : `Migration (${run.mode})`} from{' '}
          {run.sourceAccountGroupName}
        </h2>
        <Button onClick={onNew}>New Migration</Button>
      </div>
      <div>
        <ChangeSetProgress label="Migration progress" totals={run.totals} />
        <p className="mt-1 text-sm text-slate-600" data-testid="migration-status">
          {finished ? (run.status === 'failed' ? `Failed: ${run.error ?? ''}` : 'Finished') : 'In progress'} ·{' '}
          {run.totals.done} done · {run.totals.skipped} left as they were · {run.totals.failed} failed ·{' '}
          {run.totals.pending} to go
        </p>
      </div>
      {run.undoneBy && (
        <p className="text-sm">
          This migration was undone.{' '}
          <Button variant="link" onClick={() => onOpen(run.undoneBy ?? '')}>
            See the undo
          </Button>
        </p>
      )}
      <DataTable
        data={run.items}
        columns={COLUMNS}
        label="Migration results"
        empty="Nothing planned yet."
        filterLabel="Filter results"
        getRowId={(item) => item.id}
        rowProps={(item) => ({ 'data-status': item.status })}
        maxHeight={480}
      />
      {finished && (
        <div className="flex flex-wrap gap-3">
          <a className="text-brand-700 underline" href={resultsUrl(run.id, 'xlsx')} download>
            Download results (XLSX)
          </a>
          <a className="text-brand-700 underline" href={resultsUrl(run.id, 'csv')} download>
            Download results (CSV)
          </a>
        </div>
      )}
      {undoable && (
        <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-label="Undo">
          <h3 className="font-semibold">Undo</h3>
          <p className="text-sm text-slate-600">
            Deletes the rules and windows this migration created, puts back the definitions it replaced, and brings back
            the rules a move deleted.
          </p>
          <TokenField label="OAuth Token" value={token} onChange={(event) => setToken(event.target.value)} />
          {run.targetOrganizationName && (
            <TokenField
              label={`OAuth Token of ${run.targetOrganizationName}`}
              value={targetToken}
              onChange={(event) => setTargetToken(event.target.value)}
            />
          )}
          <Button
            variant="danger"
            busy={undo.isPending}
            busyLabel="Starting the undo"
            onClick={() =>
              undo.mutate(
                {
                  id: run.id,
                  token: token.trim(),
                  targetToken: run.targetOrganizationName ? targetToken.trim() : undefined,
                },
                { onSuccess: (started) => onOpen(started.id) },
              )
            }
          >
            Undo Migration
          </Button>
        </section>
      )}
    </section>
  );
}
