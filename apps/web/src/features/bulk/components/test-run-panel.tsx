import { useState } from 'react';
import { isFinished, type BulkRun, type BulkRunItem } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useBulkRun } from '../api/run';
import { useUndoRun } from '../api/undo-run';
import { downloadText } from '../../../lib/download';
import { templatesFileText } from '../template-file';
import { CellGrid, type GridCell } from './cell-grid';
import { RunItems, RunState, RunTotals, useFinishToast } from './run-results';
import { TokenField } from '../../../components/ui/token-field';

const CELL_LABEL: Record<BulkRunItem['status'], string> = {
  pending: 'Waiting',
  running: 'Creating…',
  done: 'Created',
  skipped: 'Skipped',
  failed: 'Failed',
};

function runCell(run: BulkRun) {
  const byCell = new Map(run.items.map((item) => [`${item.templateIndex}:${item.aid}`, item]));
  return (templateIndex: number, aid: string): GridCell | undefined => {
    const item = byCell.get(`${templateIndex}:${aid}`);
    if (!item) return undefined;
    return {
      status: item.status,
      label: CELL_LABEL[item.status],
      detail: item.status === 'failed' ? item.error : item.status === 'skipped' ? item.note : item.resultId,
    };
  };
}

export interface TestRunPanelProps {
  runId: string;
  /** The token still in memory from the session that started the run, if any. */
  knownToken: string;
  onOpenRun: (runId: string) => void;
  onNewSession: () => void;
}

/** A bulk tests run (or its undo) as the server carries it out: live grid, totals, items, undo. */
export function TestRunPanel({ runId, knownToken, onOpenRun, onNewSession }: TestRunPanelProps) {
  const { data: run, error } = useBulkRun(runId);
  useFinishToast(run);

  if (error)
    return (
      <section className="space-y-3" aria-label="Results">
        <p className="text-red-700">{error.message}</p>
        <NewSessionButton onClick={onNewSession} />
      </section>
    );
  if (!run) return <Spinner label="Loading the run" />;

  const undo = run.kind === 'undo-tests';
  return (
    <section className="space-y-4" aria-label="Results">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 className="text-xl font-semibold">{undo ? 'Undo Results' : 'Results'}</h2>
        <span className="text-sm text-slate-500">
          {run.organizationName} · started by {run.requestedBy} on {new Date(run.createdAt).toLocaleString()}
        </span>
      </div>
      <RunState run={run} />
      {run.undoOf && (
        <p className="text-sm">
          This run deletes the tests created by{' '}
          <button type="button" className="text-brand-700 underline" onClick={() => onOpenRun(run.undoOf ?? '')}>
            the original run
          </button>
          .
        </p>
      )}
      {run.undoneBy && (
        <p className="text-sm" data-testid="undone-note">
          This run has been undone:{' '}
          <button type="button" className="text-brand-700 underline" onClick={() => onOpenRun(run.undoneBy ?? '')}>
            see the undo run
          </button>
          .
        </p>
      )}
      {run.kind === 'tests' && (
        <CellGrid
          caption="Progress per template and account group"
          templateNames={run.templates.map((template) => template.testName)}
          groups={run.accountGroups}
          cell={runCell(run)}
        />
      )}
      <RunTotals run={run} />
      <RunItems run={run} />
      <div className="flex flex-wrap gap-2">
        {run.kind === 'tests' && isFinished(run) && run.totals.done > 0 && !run.undoneBy && (
          <UndoButton run={run} knownToken={knownToken} onUndone={onOpenRun} />
        )}
        {run.kind === 'tests' && (
          <button
            type="button"
            className="rounded-md border border-slate-300 px-4 py-2"
            onClick={() => downloadText('bulk-test-templates.json', templatesFileText(run.templates))}
          >
            Export Templates
          </button>
        )}
        <NewSessionButton onClick={onNewSession} />
      </div>
    </section>
  );
}

function NewSessionButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
    >
      Start New Bulk Test Session
    </button>
  );
}

function UndoButton({
  run,
  knownToken,
  onUndone,
}: {
  run: BulkRun;
  knownToken: string;
  onUndone: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState(knownToken);
  const undo = useUndoRun();
  const close = () => setOpen(false);
  const confirm = () => {
    if (!token.trim()) return;
    undo.mutate(
      { id: run.id, token: token.trim() },
      {
        onSuccess: (undoRun) => {
          setOpen(false);
          onUndone(undoRun.id);
        },
      },
    );
  };
  const count = run.totals.done;
  return (
    <>
      <Button onClick={() => setOpen(true)} className="border-red-300 font-medium text-red-700 hover:bg-red-50">
        Undo this run
      </Button>
      <Dialog
        title="Undo this run"
        isOpen={open}
        onClose={close}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button
              variant="danger"
              onClick={confirm}
              disabled={!token.trim()}
              busy={undo.isPending}
              busyLabel="Deleting"
            >
              {undo.isPending ? 'Deleting…' : `Delete ${count} ${count === 1 ? 'test' : 'tests'}`}
            </Button>
          </>
        }
      >
        <div className="space-y-3">
          <p>
            This deletes the {count} {count === 1 ? 'test' : 'tests'} this run created, and nothing else: tests it
            skipped because they already existed stay as they are.
          </p>
          {!knownToken && (
            <TokenField
              label="OAuth Token"
              placeholder="Paste the Org Admin's API token"
              recent={{ list: 'bulk-tests', pick: setToken }}
              value={token}
              onChange={(event) => setToken(event.target.value)}
            />
          )}
        </div>
      </Dialog>
    </>
  );
}
