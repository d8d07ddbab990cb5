import type { ChangeSet, ChangeSetItem } from '@ce/contract';
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

type Totals = Pick<ChangeSet['totals'], 'total' | 'pending' | 'done' | 'failed'>;

/** Under way: neutral, amber once something failed; ended: green, amber when some failed, red when nothing was done. */
function fillColour({ pending, done, failed }: Totals): string {
  if (failed > 0) return pending === 0 && done === 0 ? 'bg-red-600' : 'bg-amber-500';
  return pending > 0 ? 'bg-sky-600' : 'bg-green-600';
}

/**
 * How far a change set has come, as a progress bar: its width is the share of items handled (none when
 * nothing is planned), its colour how they went.
 */
export function ChangeSetProgress({ label, totals }: { label: string; totals: Totals }) {
  const handled = totals.total - totals.pending;
  const percent = totals.total ? Math.round((handled / totals.total) * 100) : 0;
  const failed = totals.failed ? `: ${totals.failed} failed` : '';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={totals.total ? `${handled} of ${totals.total} handled${failed}` : 'Nothing planned'}
      className="h-2 overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-full transition-all ${fillColour(totals)}`} style={{ width: `${percent}%` }} />
    </div>
  );
}
