export interface MetricTileProps {
  label: string;
  value: number;
  isLoading: boolean;
  suffix?: string;
}

/**
 * A count as en-US writes it (12,345.5), by hand: the browser's number formatting loads its locale data on first use,
 * the slowest part of this page's first screen on a phone.
 */
export function formatted(value: number): string {
  const [whole = '', fraction] = String(Math.round(value * 1000) / 1000).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

export function MetricTile({ label, value, isLoading, suffix }: MetricTileProps) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="metric-tile">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900" aria-busy={isLoading}>
        {isLoading ? '…' : formatted(value)}
        {suffix && !isLoading && <span className="ml-1 text-sm font-normal text-slate-500">{suffix}</span>}
      </p>
    </div>
  );
}
