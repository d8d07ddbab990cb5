import { isFinished, type BulkRun } from '@ce/contract';

const requestedAt = new Map<string, number>();
const waited = new Map<string, number>();

/**
 * What the user waited for a run (the results panel's "Execution time"): from their click, when the run was
 * started from this page, to the moment the page read it back finished. Kept for the page's life. A run
 * opened otherwise (after a reload, from the recent runs) counts from its request to its end on the server.
 */
export const runWaits = {
  /** A run was started: the wait began at `at` (`performance.now()` of the click). */
  started(runId: string, at: number): void {
    requestedAt.set(runId, at);
  },
  /** The run was read: the first time it is finished, the wait of a run started here ends. */
  read(run: BulkRun, now = performance.now()): void {
    const at = requestedAt.get(run.id);
    if (at !== undefined && isFinished(run) && !waited.has(run.id)) waited.set(run.id, Math.round(now - at));
  },
  /** Milliseconds, or null while the run is under way. */
  of(run: Pick<BulkRun, 'id' | 'createdAt' | 'finishedAt'>): number | null {
    const here = waited.get(run.id);
    if (here !== undefined) return here;
    return run.finishedAt ? Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.createdAt)) : null;
  },
};
