import type { CaptureSummary } from '@ce/contract';

const WIDTH = 640;
const HEIGHT = 160;

/** Packets and bytes per time bucket as two lines, each scaled to its own maximum. */
export function TimelineChart({ timeline }: { timeline: CaptureSummary['timeline'] }) {
  const points = timeline.points;
  if (points.length === 0) return <p className="text-sm text-slate-500">No timestamps to draw.</p>;
  const line = (values: number[]) => {
    const max = Math.max(1, ...values);
    return values
      .map((value, index) => {
        const x = points.length === 1 ? WIDTH / 2 : (index / (points.length - 1)) * WIDTH;
        const y = HEIGHT - (value / max) * (HEIGHT - 8) - 4;
        return `${x.toFixed(1)},${y.toFixed(1)}`;
      })
      .join(' ');
  };
  const unit = timeline.bucketSeconds === 1 ? 'second' : `${timeline.bucketSeconds} seconds`;
  return (
    <figure className="space-y-1">
      <svg
        role="img"
        aria-label={`Packets and bytes per ${unit}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-40 w-full rounded border border-slate-200 bg-white"
        preserveAspectRatio="none"
      >
        <polyline points={line(points.map((point) => point.packets))} fill="none" stroke="#0f766e" strokeWidth="2" />
        <polyline
          points={line(points.map((point) => point.bytes))}
          fill="none"
          stroke="#b45309"
          strokeWidth="1.5"
          strokeDasharray="4 3"
        />
      </svg>
      <figcaption className="text-xs text-slate-500">
        Per {unit}: <span className="text-teal-700">packets (solid)</span>,{' '}
        <span className="text-amber-700">bytes (dashed)</span>, each against its own peak (
        {Math.max(...points.map((point) => point.packets))} packets, {Math.max(...points.map((point) => point.bytes))}{' '}
        bytes).
      </figcaption>
    </figure>
  );
}
