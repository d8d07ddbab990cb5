import { isFinished, type BulkRun, type BulkRunItem } from '@ce/contract';
import { RunPanel } from '../../../components/run-panel/run-panel';
import { useBulkRun } from '../api/run';
import { useUndoRun } from '../api/undo-run';
import { downloadText } from '../../../lib/download';
import { templatesFileText } from '../template-file';
import { CellGrid, type GridCell } from './cell-grid';
import { RunState, RunTotals, runItems, runToast } from './run-results';
import { dateTime } from '../../../lib/dates';

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

/**
 * What undoing a tests run does, named with its account groups: "Delete 6 tests created in Acme - Staging?"
 * (the spec's words), then what stays.
 */
export function undoTestsQuestion(run: BulkRun): string {
  const count = run.totals.done;
  const tests = count === 1 ? 'test' : 'tests';
  const made = run.items.filter((item) => item.status === 'done');
  const groups = [...new Set(made.map((item) => item.accountGroupName))];
  const where = groups.length > 0 ? ` created in ${groups.join(', ')}` : ' this run created';
  return `Delete ${count} ${tests}${where}? Tests it skipped because they already existed stay as they are, and nothing else changes.`;
}

export interface TestRunPanelProps {
  runId: string;
  /** The token still in memory from the session that started the run, if any. */
  knownToken: string;
  onOpenRun: (runId: string) => void;
  onNewSession: () => void;
}

/** A bulk tests run (or its undo) in the writing tools' run panel: live grid, totals, items, undo. */
export function TestRunPanel({ runId, knownToken, onOpenRun, onNewSession }: TestRunPanelProps) {
  const { data: run, error } = useBulkRun(runId);
  const undo = useUndoRun();
  return (
    <RunPanel
      run={run}
      error={error}
      loadingLabel="Loading the run"
      failed={(failure) => (
        <section className="space-y-3" aria-label="Results">
          <p className="text-red-700">{failure.message}</p>
          <NewSessionButton onClick={onNewSession} />
        </section>
      )}
      endToast={runToast}
      view={(run) => {
        const count = run.totals.done;
        const tests = count === 1 ? 'test' : 'tests';
        return {
          label: 'Results',
          title: run.kind === 'undo-tests' ? 'Undo Results' : 'Results',
          aside: (
            <span className="text-sm text-slate-500">
              {run.organizationName} · started by {run.requestedBy} on {dateTime(run.createdAt)}
            </span>
          ),
          progressLabel: 'Run progress',
          status: <RunState run={run} />,
          details: (
            <>
              {run.undoOf && (
                <p className="text-sm">
                  This run deletes the tests created by{' '}
                  <button
                    type="button"
                    className="text-brand-700 underline"
                    onClick={() => onOpenRun(run.undoOf ?? '')}
                  >
                    the original run
                  </button>
                  .
                </p>
              )}
              {run.undoneBy && (
                <p className="text-sm" data-testid="undone-note">
                  This run has been undone:{' '}
                  <button
                    type="button"
                    className="text-brand-700 underline"
                    onClick={() => onOpenRun(run.undoneBy ?? '')}
                  >
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
            </>
          ),
          items: runItems(run),
          undo:
            run.kind === 'tests' && isFinished(run) && count > 0 && !run.undoneBy
              ? {
                  label: 'Undo this run',
                  variant: 'outline',
                  description: undoTestsQuestion(run),
                  confirmLabel: `Delete ${count} ${tests}`,
                  pendingText: 'Deleting…',
                  busyLabel: 'Deleting',
                  tokens: [{ label: 'OAuth Token', known: knownToken, recent: 'bulk-tests' }],
                  pending: undo.isPending,
                  onConfirm: ([token = ''], done) =>
                    undo.mutate(
                      { id: run.id, token },
                      {
                        onSuccess: (undoRun) => {
                          done();
                          onOpenRun(undoRun.id);
                        },
                      },
                    ),
                }
              : undefined,
          actions: (
            <>
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
            </>
          ),
        };
      }}
    />
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
