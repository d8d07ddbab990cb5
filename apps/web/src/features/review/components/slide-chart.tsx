/** A slide's chart as the server planned it (the same data the deck and its PDF draw). */
export interface SlideChartData {
  type: 'bar' | 'line';
  categories: string[];
  series: { name: string; values: (number | null)[] }[];
  min?: number;
  max?: number;
  unit: string;
}

const WIDTH = 280;
const HEIGHT = 120;
const LEFT = 46;
const BOTTOM = 22;

/** The series' colours (the deck's: teal, then the report kit's palette), each dark enough on white. */
const TONES = [
  'text-brand-700',
  'text-amber-800',
  'text-sky-800',
  'text-purple-800',
  'text-rose-800',
  'text-slate-700',
];
/** Lines differ by more than their colour: solid, dashed, dotted, and again. */
const DASHES = [undefined, '6 4', '2 3'];

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** Every category's value, in words: the chart's text equivalent. */
export function chartWords(chart: SlideChartData): string {
  return chart.series
    .map(
      (line) =>
        `${line.name}: ${chart.categories
          .map((category, index) => {
            const value = line.values[index];
            return `${category} ${value === null || value === undefined ? 'no value' : number(value)}`;
          })
          .join(', ')}`,
    )
    .join('; ');
}

/**
 * The chart for the eye, scaled to its box (no sideways scroll on a phone); its label says every value in words, and
 * its legend names each series beside its mark.
 */
export function SlideChart({ title, chart }: { title: string; chart: SlideChartData }) {
  const values = chart.series.flatMap((line) => line.values).filter((value): value is number => value !== null);
  const min = chart.min ?? Math.min(0, ...values);
  const max = chart.max ?? Math.max(min + 1, ...values);
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - BOTTOM;
  const slot = plotWidth / Math.max(1, chart.categories.length);
  const y = (value: number) =>
    plotHeight - ((Math.max(min, Math.min(max, value)) - min) / (max - min || 1)) * plotHeight;
  const x = (index: number) => LEFT + slot * index + slot / 2;
  const barWidth = Math.max(2, (slot * 0.7) / Math.max(1, chart.series.length));
  // Category names under the axis when they fit; else every few, so none is drawn over another.
  const every = Math.max(1, Math.ceil((chart.categories.length * 48) / plotWidth));
  return (
    <figure className="space-y-1">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-md"
        role="img"
        aria-label={`${title}, ${chart.unit}: ${chartWords(chart)}`}
        data-testid="slide-chart"
      >
        <g className="text-slate-600" fill="currentColor" fontSize="11">
          <line x1={LEFT} x2={WIDTH} y1={plotHeight} y2={plotHeight} stroke="currentColor" />
          <text x={LEFT - 4} y={11} textAnchor="end">
            {number(max)}
          </text>
          <text x={LEFT - 4} y={plotHeight} textAnchor="end">
            {number(min)}
          </text>
          {chart.categories.map((category, index) =>
            index % every === 0 ? (
              <text key={category} x={x(index)} y={HEIGHT - 6} textAnchor="middle">
                {category.length > 9 ? `${category.slice(0, 8)}…` : category}
              </text>
            ) : null,
          )}
        </g>
        {chart.series.map((line, lineIndex) => (
          <g key={line.name} className={TONES[lineIndex % TONES.length]} fill="currentColor" stroke="currentColor">
            {chart.type === 'bar'
              ? line.values.map((value, index) =>
                  value === null ? null : (
                    <rect
                      key={index}
                      x={x(index) - (barWidth * chart.series.length) / 2 + barWidth * lineIndex}
                      y={y(value)}
                      width={barWidth}
                      height={Math.max(0, plotHeight - y(value))}
                      stroke="none"
                    />
                  ),
                )
              : lineSegments(line.values, x, y).map((points) => (
                  <polyline
                    key={points}
                    points={points}
                    fill="none"
                    strokeWidth="2"
                    strokeDasharray={DASHES[lineIndex % DASHES.length]}
                  />
                ))}
            {chart.type === 'line' &&
              line.values.map((value, index) =>
                value === null ? null : <circle key={index} cx={x(index)} cy={y(value)} r="2.5" stroke="none" />,
              )}
          </g>
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>{chart.unit}</span>
        {chart.series.length > 1 &&
          chart.series.map((line, lineIndex) => (
            <span key={line.name} className="inline-flex items-center gap-1">
              <svg viewBox="0 0 16 8" className={`h-2 w-4 ${TONES[lineIndex % TONES.length]}`} aria-hidden="true">
                <line
                  x1="0"
                  x2="16"
                  y1="4"
                  y2="4"
                  stroke="currentColor"
                  strokeWidth={chart.type === 'bar' ? 8 : 2}
                  strokeDasharray={chart.type === 'line' ? DASHES[lineIndex % DASHES.length] : undefined}
                />
              </svg>
              {line.name}
            </span>
          ))}
      </figcaption>
    </figure>
  );
}

/** A line's points, split where a category has no value (no line is drawn through a gap). */
function lineSegments(values: (number | null)[], x: (index: number) => number, y: (value: number) => number) {
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
