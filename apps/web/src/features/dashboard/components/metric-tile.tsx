export interface MetricTileProps {
  label: string;
  value: number;
  isLoading: boolean;
  suffix?: string;
}

export function MetricTile({ label, value, isLoading, suffix }: MetricTileProps) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="metric-tile">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900" aria-busy={isLoading}>
        {isLoading ? '…' : value.toLocaleString('en-US')}
        {suffix && !isLoading && <span className="ml-1 text-sm font-normal text-slate-500">{suffix}</span>}
      </p>
    </div>
  );
}
