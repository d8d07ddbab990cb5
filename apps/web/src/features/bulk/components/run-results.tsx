import {
  BULK_MESSAGES,
  isFinished,
  testRunToast,
  type BulkRun,
  type BulkRunItem,
  type BulkRunKind,
} from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { ColumnDef } from '../../../components/ui/data-table';
import { Spinner } from '../../../components/ui/spinner';
import { RunPanel, type RunView } from '../../../components/run-panel/run-panel';
import { useBulkRun } from '../api/run';
import { runWaits } from '../run-waits';

interface KindWords {
  subject: string;
  /** Past participle of what a done item did: 'tests created'. */
  done: string;
}

const WORDS: Record<BulkRunKind, KindWords> = {
  tests: { subject: 'Test name', done: 'tests created' },
  'undo-tests': { subject: 'Test name', done: 'tests deleted' },
  agents: { subject: 'Agent', done: 'agents deleted' },
  labels: { subject: 'Label', done: 'label assignments made' },
  users: { subject: 'Email', done: 'users invited' },
};

/** The toast a run ends with: the spec's three for test runs, the same pattern for the others. */
export function runToast(run: BulkRun): {
  type: 'success' | 'warning' | 'error' | 'info';
  title?: string;
  message: string;
} {
  if (run.status === 'failed' && run.error) return { type: 'error', message: run.error };
  if (run.kind === 'tests') return testRunToast(run);
  const attempted = run.totals.done + run.totals.failed;
  const words = WORDS[run.kind].done;
  if (attempted === 0) return { type: 'info', message: 'Nothing to do: every item was already in place' };
  if (run.totals.failed === 0) return { type: 'success', message: `All ${attempted} ${words} successfully` };
  if (run.totals.done > 0)
    return {
      type: 'warning',
      title: BULK_MESSAGES.someCreatedTitle,
      message: `${run.totals.done}/${attempted} ${words} successfully`,
    };
  return { type: 'error', message: `Nothing done: all ${attempted} operations failed` };
}

const STATUS_TONE: Record<BulkRunItem['status'], BadgeTone> = {
  pending: 'neutral',
  running: 'sky',
  done: 'success',
  skipped: 'amber',
  failed: 'danger',
};

function StatusChip({ status }: { status: BulkRunItem['status'] }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}

function Metric({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-xl font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Total, successful, failed, skipped and execution time (what the user waited for the results) of a run. */
export function RunTotals({ run }: { run: BulkRun }) {
  const waited = runWaits.of(run);
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5" aria-label="Run totals">
      <Metric label="Total" value={run.totals.total} testId="total" />
      <Metric label="Successful" value={run.totals.done} testId="successful" />
      <Metric label="Failed" value={run.totals.failed} testId="failed" />
      <Metric label="Skipped" value={run.totals.skipped} testId="skipped" />
      <Metric
        label="Execution time"
        value={waited === null ? '…' : `${waited.toLocaleString('en-US')} ms`}
        testId="execution-time"
      />
    </dl>
  );
}

function outcome(item: BulkRunItem): string {
  if (item.status === 'failed') return item.error ?? BULK_MESSAGES.createFailed;
  if (item.status === 'skipped') return [item.note, item.resultId && `id ${item.resultId}`].filter(Boolean).join(' · ');
  if (item.status === 'done') return item.resultId ? `id ${item.resultId}` : (item.note ?? 'Done');
  return item.status === 'running' ? 'In progress' : 'Waiting';
}

function itemColumns(kind: BulkRunKind): ColumnDef<BulkRunItem, unknown>[] {
  return [
    { id: 'subject', header: WORDS[kind].subject, accessorFn: (item) => item.subject },
    { id: 'group', header: 'Account group', accessorFn: (item) => item.accountGroupName },
    {
      id: 'status',
      header: 'Status',
      accessorFn: (item) => item.status,
      cell: ({ row }) => <StatusChip status={row.original.status} />,
    },
    {
      id: 'result',
      header: 'Result',
      accessorFn: outcome,
      cell: ({ row }) => (
        <span className={row.original.status === 'failed' ? 'text-red-700' : 'text-slate-600'}>
          {outcome(row.original)}
        </span>
      ),
    },
  ];
}

/** Per item, in the run panel: what it is about, the account group, and the id the platform gave or the error. */
export function runItems(run: BulkRun): RunView<BulkRunItem>['items'] {
  return {
    label: 'Run items',
    data: run.items,
    columns: itemColumns(run.kind),
    getRowId: (item) => item.id,
    maxHeight: 384,
    filterLabel: run.items.length > 10 ? 'Search the results' : undefined,
    empty: 'Nothing matches the search.',
    rowProps: (item) => ({ 'data-testid': 'run-item', 'data-status': item.status }),
    none: (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="h-4 w-4" /> Preparing the run…
      </p>
    ),
  };
}

/** One line on where the run stands. */
export function RunState({ run }: { run: BulkRun }) {
  const finished = isFinished(run);
  const progressed = run.totals.total - run.totals.pending;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="run-state" data-status={run.status}>
      {!finished && <Spinner className="h-4 w-4" />}
      {run.status === 'queued' && 'Queued: the server starts this run in a moment.'}
      {run.status === 'running' && `Running on the server: ${progressed} of ${run.totals.total} done.`}
      {run.status === 'done' && 'Finished.'}
      {run.status === 'failed' && `Stopped: ${run.error ?? 'the run failed'}`}
      {!finished && <span className="text-slate-500">You can leave or reload this page; the run carries on.</span>}
    </p>
  );
}

export interface BulkRunPanelProps {
  runId: string;
  title: string;
  newLabel: string;
  onNew: () => void;
}

/** A run of the labels, users or agents tools in the writing tools' run panel: state, totals and items, live. */
export function BulkRunPanel({ runId, title, newLabel, onNew }: BulkRunPanelProps) {
  const { data: run, error } = useBulkRun(runId);
  const newButton = (
    <Button variant="primary" onClick={onNew}>
      {newLabel}
    </Button>
  );
  return (
    <RunPanel
      run={run}
      error={error}
      loadingLabel="Loading the run"
      failed={(failure) => (
        <section className="space-y-4" aria-label="Results">
          <h2 className="text-xl font-semibold">{title}</h2>
          <p className="text-red-700">{failure.message}</p>
          {newButton}
        </section>
      )}
      endToast={runToast}
      view={(run) => ({
        label: 'Results',
        title,
        progressLabel: 'Run progress',
        status: <RunState run={run} />,
        details: <RunTotals run={run} />,
        items: runItems(run),
        actions: newButton,
      })}
    />
  );
}
