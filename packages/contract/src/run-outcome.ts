// Apart from the schemas: the run panel, its end toast and a customer's page say a run's outcome from this one rule.

/**
 * How a piece of work went, as a customer's page and a run's panel say it: still under way, done, done with some of
 * its items failed, failed (stopped, or not one of its items done), or undone since.
 */
export const WORK_OUTCOMES = ['queued', 'running', 'done', 'done-with-failures', 'failed', 'undone'] as const;
export type WorkOutcome = (typeof WORK_OUTCOMES)[number];

/** The outcome in words: a customer's page shows these, coloured by `WORK_OUTCOME_TONES`. */
export const WORK_OUTCOME_LABELS: Record<WorkOutcome, string> = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  'done-with-failures': 'done with failures',
  failed: 'failed',
  undone: 'undone',
};

/** Its colour: the badge tones of the web kit (green done, amber with failures, red failed). */
export const WORK_OUTCOME_TONES = {
  queued: 'neutral',
  running: 'sky',
  done: 'success',
  'done-with-failures': 'amber',
  failed: 'danger',
  undone: 'info',
} as const satisfies Record<WorkOutcome, string>;

/** What a job's status alone says (a report, a backup, a dashboard push: `sending` is under way). */
export function statusOutcome(status: string): WorkOutcome {
  if (status === 'done' || status === 'failed' || status === 'queued') return status;
  return 'running';
}

/** A writing tool's run as its outcome reads it: its status, its items' totals, and the undo that reversed it. */
export interface RunOutcomeInput {
  status: string;
  totals: { done: number; failed: number };
  undoneBy?: string | null;
}

/**
 * A run's outcome: a run that stopped, or that finished with not one item done and some failed ("0 of 1 created":
 * the platform refused every write), failed; with some done and some failed, done with failures; reversed by an
 * undo, undone. The run panel, its end toast and the customer's page all say this.
 */
export function runOutcome(run: RunOutcomeInput): WorkOutcome {
  if (run.status !== 'done') return statusOutcome(run.status);
  if (run.undoneBy) return 'undone';
  if (run.totals.failed > 0) return run.totals.done === 0 ? 'failed' : 'done-with-failures';
  return 'done';
}

/** The end-of-run toast's type that agrees with an outcome. */
export const OUTCOME_TOAST_TYPES = {
  queued: 'info',
  running: 'info',
  done: 'success',
  'done-with-failures': 'warning',
  failed: 'error',
  undone: 'success',
} as const satisfies Record<WorkOutcome, 'success' | 'warning' | 'error' | 'info'>;
