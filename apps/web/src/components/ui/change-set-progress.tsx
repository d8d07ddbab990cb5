import type { ChangeSetItem } from '@ce/contract';
import { Badge, type BadgeTone } from './badge';

const STATUS_TONE: Record<ChangeSetItem['status'], BadgeTone> = {
  pending: 'neutral',
  running: 'sky',
  done: 'success',
  skipped: 'amber',
  failed: 'danger',
};

/** An item's outcome in a change set's results (done, skipped, failed...), as a coloured pill. */
export function ItemStatus({ status }: { status: ChangeSetItem['status'] }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}

/** How far a change set has come: the share of its items settled, as a progress bar. */
export function ChangeSetProgress({ label, totals }: { label: string; totals: { total: number; pending: number } }) {
  const percent = totals.total ? Math.round(((totals.total - totals.pending) / totals.total) * 100) : 100;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
    </div>
  );
}
