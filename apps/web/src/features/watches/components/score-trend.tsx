import type { WatchRun } from '@ce/contract';
import { dateTime } from '../../../lib/dates';

const WIDTH = 240;
const HEIGHT = 48;

/**
 * A watch's score over its runs, oldest first: a line drawn for the eye, and beside it, for every reader, each step
 * with its score and the checks that moved it.
 */
export function ScoreTrend({ runs }: { runs: WatchRun[] }) {
  const scored = runs
    .filter((run) => run.status === 'done' && run.score !== null)
    .slice(0, 12)
    .reverse();
  if (scored.length === 0)
    return <p className="text-sm text-slate-600">No score yet: the first health check sets it.</p>;
  const step = scored.length > 1 ? WIDTH / (scored.length - 1) : 0;
  const y = (score: number) => HEIGHT - (score / 100) * HEIGHT;
  const points = scored.map((run, index) => `${index * step},${y(run.score ?? 0)}`).join(' ');
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">Score trend</figcaption>
      <svg viewBox={`-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`} className="h-14 w-full max-w-xs" aria-hidden="true">
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" className="text-brand-700" />
        {scored.map((run, index) => (
          <circle key={run.id} cx={index * step} cy={y(run.score ?? 0)} r="3" className="fill-brand-700" />
        ))}
      </svg>
      <ol className="space-y-1 text-sm" aria-label="Score at each run, oldest first">
        {scored.map((run) => (
          <li key={run.id} data-testid="trend-step">
            <time dateTime={run.createdAt}>{dateTime(run.createdAt)}</time>:{' '}
            <span className="font-semibold">{run.score}/100</span>
            {run.moved.length > 0 && (
              <span className="text-slate-600">
                {' '}
                ({run.moved.map((check) => `${check.title}: ${check.before} → ${check.after}`).join('; ')})
              </span>
            )}
          </li>
        ))}
      </ol>
    </figure>
  );
}
