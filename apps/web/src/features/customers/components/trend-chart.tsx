import { dayTime } from '../../../lib/dates';

/** One line of a trend chart: a value per run (null where that run could not measure it). */
export interface TrendSeries {
  name: string;
  values: (number | null)[];
  /** Drawn dashed: two lines of one chart differ by more than their colour. */
  dashed?: boolean;
}

const WIDTH = 240;
const HEIGHT = 64;

/** A run's time, short: several runs can fall on one day. */
export const runTime = dayTime;

/** The runs' lines from `min` to `max`, split where a run measured nothing (no line is drawn through a gap). */
function segments(values: (number | null)[], x: (index: number) => number, y: (value: number) => number): string[] {
  const lines: string[] = [];
  let current: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (current.length) lines.push(current.join(' '));
      current = [];
    } else current.push(`${x(index)},${y(value)}`);
  });
  if (current.length) lines.push(current.join(' '));
  return lines;
}

/**
 * A measure over the watch's runs, oldest first, for the eye: it scales to its box (no horizontal scroll on a
 * phone). Its text equivalent is its label: every line's value at each run, in words.
 */
export function TrendChart({
  label,
  at,
  series,
  format,
  floor = 0,
  ceiling,
  reference,
}: {
  label: string;
  /** The runs' times, oldest first. */
  at: string[];
  series: TrendSeries[];
  format: (value: number) => string;
  /** The lowest value the chart shows (availability starts where its worst run is, not at 0). */
  floor?: number;
  /** The highest value the chart shows, when the measure has one (100% availability). */
  ceiling?: number;
  /** A level drawn across the chart (the included units), said in the label too. */
  reference?: { name: string; value: number };
}) {
  const all = [...series.flatMap((line) => line.values), reference?.value ?? null].filter(
    (value): value is number => value !== null,
  );
  const max = ceiling ?? Math.max(...all, floor + 1);
  const min = Math.min(floor, ...all);
  const x = (index: number) => (at.length > 1 ? (index * WIDTH) / (at.length - 1) : WIDTH / 2);
  const y = (value: number) => HEIGHT - ((value - min) / (max - min || 1)) * HEIGHT;
  const words = series
    .map(
      (line) =>
        `${line.name}: ${line.values
          .map((value, index) => `${runTime(at[index] ?? '')} ${value === null ? 'not measured' : format(value)}`)
          .join(', ')}`,
    )
    .join('; ');
  const level = reference ? `; ${reference.name} ${format(reference.value)}` : '';
  return (
    <svg
      viewBox={`-6 -6 ${WIDTH + 12} ${HEIGHT + 12}`}
      className="h-16 w-full max-w-md text-brand-700"
      preserveAspectRatio="xMinYMid meet"
      role="img"
      aria-label={`${label}, at each run, oldest first: ${words}${level}`}
      data-testid="trend-chart"
    >
      {reference && (
        <g className="text-slate-500">
          <line
            x1={0}
            x2={WIDTH}
            y1={y(reference.value)}
            y2={y(reference.value)}
            stroke="currentColor"
            strokeWidth="1.5"
            strokeDasharray="2 3"
          />
          <text
            x={4}
            y={y(reference.value) + (y(reference.value) + 13 > HEIGHT ? -4 : 13)}
            fontSize="12"
            fill="currentColor"
          >
            {reference.name}
          </text>
        </g>
      )}
      {series.map((line, lineIndex) => (
        <g key={line.name} className={lineIndex === 0 ? 'text-brand-700' : 'text-amber-800'}>
          {segments(line.values, x, y).map((points) => (
            <polyline
              key={points}
              points={points}
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeDasharray={line.dashed ? '6 4' : undefined}
            />
          ))}
          {line.values.map((value, index) =>
            value === null ? null : lineIndex === 0 ? (
              <circle key={index} cx={x(index)} cy={y(value)} r="3" fill="currentColor" />
            ) : (
              <rect key={index} x={x(index) - 3} y={y(value) - 3} width="6" height="6" fill="currentColor" />
            ),
          )}
        </g>
      ))}
    </svg>
  );
}
