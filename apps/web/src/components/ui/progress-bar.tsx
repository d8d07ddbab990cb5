/** A thin bar of how far a job has come, for assistive technology a progress bar with its label. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      className="h-2 overflow-hidden rounded bg-slate-100"
      role="progressbar"
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={label}
    >
      <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
