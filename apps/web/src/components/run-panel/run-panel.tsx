import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import {
  isFinished,
  OUTCOME_TOAST_TYPES,
  RESULTS_FORMATS,
  runOutcome,
  WORK_OUTCOME_LABELS,
  WORK_OUTCOME_TONES,
  type ChangeSet,
  type WorkOutcome,
} from '@ce/contract';
import { Badge } from '../ui/badge';
import { ChangeSetProgress } from '../ui/change-set-progress';
import { JobLine } from '../ui/job-line';
import { DataTable, type DataTableProps } from '../ui/data-table';
import { useRunEndToast, type RunEndToast } from '../ui/run-end-toast';
import { Spinner } from '../ui/spinner';
import { UndoRun, type UndoRunProps } from './undo-run';

/** A run of a writing tool as the panel reads it (a bulk run, a migration, a restore, or an undo of one). */
export interface PanelRun {
  id: string;
  status: ChangeSet['status'];
  ahead: ChangeSet['ahead'];
  organizationName: string;
  totals: ChangeSet['totals'];
  items: readonly unknown[];
  /** The undo that reversed it, if any (its outcome is then "undone"). */
  undoneBy?: string | null;
}

const items = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;

/**
 * A finished run's outcome in words: what a customer's page and the end toast say of it too (a run that stopped has
 * its reason in the tool's own line).
 */
function outcomeSentence(outcome: WorkOutcome, run: PanelRun): string {
  const { done, failed } = run.totals;
  if (outcome === 'failed')
    return failed === 1
      ? 'Its one item was not done: the reason is below.'
      : `Not one of its ${items(failed)} was done: each reason is below.`;
  if (outcome === 'done-with-failures') return `${done} done, ${failed} failed: each reason is below.`;
  if (outcome === 'undone') return 'Reversed since by its undo.';
  return 'Every item is in place.';
}

/** Once a run has ended: its outcome, as a coloured word and a sentence (done, done with failures, failed, undone). */
function RunOutcome({ run }: { run: PanelRun }) {
  const outcome = runOutcome(run);
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="run-outcome" data-outcome={outcome}>
      <Badge tone={WORK_OUTCOME_TONES[outcome]}>{WORK_OUTCOME_LABELS[outcome]}</Badge>
      {run.status !== 'failed' && <span>{outcomeSentence(outcome, run)}</span>}
    </p>
  );
}

/**
 * The end toast's type agrees with the run's outcome: whatever a tool's words, a run that failed (not one item
 * done) ends with an error and one with failures with a warning, never a success.
 */
function agreeing(run: PanelRun, said: RunEndToast): RunEndToast {
  const outcome = runOutcome(run);
  return outcome === 'failed' || outcome === 'done-with-failures'
    ? { ...said, type: OUTCOME_TOAST_TYPES[outcome] }
    : said;
}

/** One item of a run (a test made in a group, a rule migrated, an item restored). */
type ItemOf<Run extends PanelRun> = Run['items'][number];

export type ResultsFormat = (typeof RESULTS_FORMATS)[number];

const RESULTS_WORDS: Record<ResultsFormat, string> = { xlsx: 'XLSX', csv: 'CSV' };

/**
 * The address of a run's own page: the tool's page as it is open now (its tab, its other choices) with
 * `?run=<id>`, which opens that run again after a reload, from a toast, or pasted in a message.
 */
export function useRunHref(): (id: string) => string {
  const { pathname, search } = useLocation();
  return (id: string) => {
    const params = new URLSearchParams(search);
    params.set('run', id);
    return `${pathname}?${params.toString()}`;
  };
}

/** What a tool shows of one of its runs, in the panel's order. */
export interface RunView<Item> {
  /** The section's accessible name. */
  label: string;
  title: ReactNode;
  /** The title's level: 2 on a page of its own, 3 inside a tool's page. */
  level?: 2 | 3;
  /** Beside the title: who started it and when, or the tool's New button. */
  aside?: ReactNode;
  /** The progress bar's accessible name. */
  progressLabel: string;
  /** The line that says where the run stands. */
  status: ReactNode;
  /** Between the state and the items: links to the original run or its undo, a grid, totals. */
  details?: ReactNode;
  /** The per-item table (its columns are the tool's); `none` replaces it while there is no item yet. */
  items: DataTableProps<Item> & { none?: ReactNode };
  /** Where the results file is downloaded from, once the run has finished (the session cookie goes along). */
  resultsUrl?: (format: ResultsFormat) => string;
  /** The undo, when this run can be undone now. */
  undo?: UndoRunProps;
  /** After the undo: the tool's other buttons. */
  actions?: ReactNode;
}

export interface RunPanelProps<Run extends PanelRun> {
  /** The run as the tool's query holds it (read again every second until it has finished). */
  run: Run | undefined;
  error?: Error | null;
  loadingLabel: string;
  /** What the panel shows when the run could not be read. */
  failed: (error: Error) => ReactNode;
  /** The toast the run ends with, shown once when this page saw it going and then finish. */
  endToast: (run: Run) => RunEndToast;
  view: (run: Run) => RunView<ItemOf<Run>>;
}

/**
 * The panel's section: brought into view and focused when a run this page saw going ends, so its results are
 * what the person reads next (the tool's spent form stays below them).
 */
function useResultsInView(run: PanelRun | undefined) {
  const section = useRef<HTMLElement>(null);
  const seenGoing = useRef<string | null>(null);
  const status = run?.status;
  const id = run?.id;
  useEffect(() => {
    if (!id || !status) return;
    if (status === 'queued' || status === 'running') {
      seenGoing.current = id;
      return;
    }
    if (seenGoing.current !== id) return;
    seenGoing.current = null;
    const element = section.current;
    if (!element) return;
    // Browsers scroll; a page without layout (a test's DOM) has nothing to scroll and only focuses.
    if (typeof element.scrollIntoView === 'function') element.scrollIntoView({ block: 'start', behavior: 'smooth' });
    element.focus({ preventScroll: true });
  }, [id, status]);
  return section;
}

/**
 * The run panel of every writing tool (bulk, alerts migration, restore, and their undos): progress bar
 * (handled of total, coloured by outcome), where the run stands, each item's status, the results files,
 * Undo with a confirmation, and the end-of-run toast. A tool gives its run, its words and its item columns.
 * Beside the title, and in the end-of-run toast, a link to the run's own page ("Link to this run").
 */
export function RunPanel<Run extends PanelRun>({
  run,
  error,
  loadingLabel,
  failed,
  endToast,
  view,
}: RunPanelProps<Run>) {
  const runHref = useRunHref();
  useRunEndToast(run, (ended) => ({
    ...agreeing(ended, endToast(ended)),
    link: { to: runHref(ended.id), label: 'Open the run' },
  }));
  const section = useResultsInView(run);
  if (error) return failed(error);
  if (!run) return <Spinner label={loadingLabel} />;
  const shown = view(run);
  const { none, ...table } = shown.items;
  const Title = shown.level === 3 ? 'h3' : 'h2';
  const finished = isFinished(run);
  return (
    <section ref={section} tabIndex={-1} className="space-y-4 outline-none" aria-label={shown.label}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-2">
        <Title className={shown.level === 3 ? 'text-lg font-semibold' : 'text-xl font-semibold'}>{shown.title}</Title>
        <Link to={runHref(run.id)} className="text-sm text-brand-700 underline" data-testid="run-link">
          Link to this run
        </Link>
        {shown.aside}
      </div>
      <div className="space-y-1">
        <ChangeSetProgress label={shown.progressLabel} totals={run.totals} />
        <JobLine
          status={run.status}
          ahead={run.ahead}
          organizationName={run.organizationName}
          done={run.totals.total - run.totals.pending}
          total={run.totals.total}
          unit="calls"
        />
        {shown.status}
        {finished && <RunOutcome run={run} />}
      </div>
      {shown.details}
      {none && table.data.length === 0 ? none : <DataTable {...table} />}
      {finished && shown.resultsUrl && (
        <div className="flex flex-wrap gap-3">
          {RESULTS_FORMATS.map((format) => (
            <a key={format} className="text-brand-700 underline" href={shown.resultsUrl?.(format)} download>
              Download results ({RESULTS_WORDS[format]})
            </a>
          ))}
        </div>
      )}
      {(shown.undo || shown.actions) && (
        <div className="flex flex-wrap gap-2">
          {shown.undo && <UndoRun {...shown.undo} />}
          {shown.actions}
        </div>
      )}
    </section>
  );
}
