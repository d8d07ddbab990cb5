import { useSyncExternalStore } from 'react';
import { budgetWaits as defaultStore, type BudgetWaitStore } from '../../lib/budget-waits';
import { Button } from './button';

export interface BudgetWaitNoticeProps {
  store?: BudgetWaitStore;
  /** On the page: shown only while no dialog is open (an open dialog shows it itself). */
  page?: boolean;
}

/**
 * "Waiting for Acme Corporation's API budget: about 12 s", or "Reading rule 140 of 380" with a bar that fills as it
 * reads, with Cancel, for each request that waits.
 */
export function BudgetWaitNotice({ store = defaultStore, page = false }: BudgetWaitNoticeProps) {
  const waits = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const hidden = useSyncExternalStore(store.subscribe, () => page && store.dialogOpen());
  if (waits.length === 0 || hidden) return null;
  return (
    <div role="status" className="mb-4 flex flex-col gap-2">
      {waits.map((wait) => (
        <div
          key={wait.requestId}
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-slate-900"
        >
          <span>{wait.line}</span>
          <Button onClick={wait.cancel}>Cancel</Button>
          {wait.reading && wait.reading.total > 0 && <ReadingBar {...wait.reading} />}
        </div>
      ))}
    </div>
  );
}

function ReadingBar({ noun, done, total }: { noun: string; done: number; total: number }) {
  const percent = Math.round((Math.min(done, total) / total) * 100);
  return (
    <div
      role="progressbar"
      aria-label={`Reading ${noun}s`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-1.5 w-full overflow-hidden rounded-full bg-amber-100"
    >
      <div className="h-full bg-amber-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
