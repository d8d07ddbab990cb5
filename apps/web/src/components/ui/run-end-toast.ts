import { useEffect, useRef } from 'react';
import { isFinished, type ToastType } from '@ce/contract';
import { toast, type ToastLink } from './toast-store';

/** What a run's end says: its toast's type, an optional title, and the message. */
export interface RunEndToast {
  type: ToastType;
  title?: string;
  message: string;
  /** Where the run is: its own page ("Open the run"). */
  link?: ToastLink;
}

/** A run of a writing tool as its end-of-run toast reads it. */
interface ChangeSetRunEnd {
  status: string;
  error: string | null;
  totals: { done: number; failed: number };
}

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

/**
 * The end-of-run message every change set says in the same words (alerts migration, restore, their undos): it
 * stopped (with the reason), some items failed, or every change was made ("Migrated: 3 changes made") or
 * reversed by an undo.
 */
export function changeSetEndToast(
  run: ChangeSetRunEnd,
  words: { done: string; noun: string; undo: boolean },
): RunEndToast {
  if (run.status === 'failed') return { type: 'error', message: run.error ?? `The ${words.noun} stopped.` };
  if (run.totals.failed > 0)
    return {
      type: 'warning',
      message: `${run.totals.done} done, ${run.totals.failed} failed: each reason is in the results`,
    };
  return words.undo
    ? { type: 'success', message: `Undone: ${changes(run.totals.done)} reversed` }
    : { type: 'success', message: `${words.done}: ${changes(run.totals.done)} made` };
}

/**
 * Shows a run's end-of-run toast once, when this page saw the run going and then finish (so opening a run
 * that ended long ago, or a reload after its end, says nothing). Every writing tool's run page uses it.
 */
export function useRunEndToast<Run extends { id: string; status: 'queued' | 'running' | 'done' | 'failed' }>(
  run: Run | undefined,
  outcome: (run: Run) => RunEndToast,
): void {
  const seenRunning = useRef<string | null>(null);
  // The latest wording, without showing the toast again when the caller passes a new function.
  const say = useRef(outcome);
  useEffect(() => {
    say.current = outcome;
  }, [outcome]);
  useEffect(() => {
    if (!run) return;
    if (!isFinished(run)) {
      seenRunning.current = run.id;
      return;
    }
    if (seenRunning.current !== run.id) return;
    seenRunning.current = null;
    const { type, title, message, link } = say.current(run);
    toast.show(type, message, { title, ...(link ? { link } : {}) });
  }, [run]);
}
