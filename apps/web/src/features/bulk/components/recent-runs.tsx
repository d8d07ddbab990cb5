import { BULK_RUN_LABELS } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { useBulkRuns } from '../api/runs';
import { dateTime } from '../../../lib/dates';

export interface RecentRunsProps {
  view: 'tests' | 'agents' | 'labels' | 'users';
  onOpen: (runId: string) => void;
}

/** Which groups a run wrote into: their names, the first three and how many more. */
const groupNames = (names: string[]) =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;

/** The user's last runs of a tool, so one started earlier (or elsewhere) can be followed or undone. */
export function RecentRuns({ view, onOpen }: RecentRunsProps) {
  const { data: runs } = useBulkRuns(view);
  if (!runs || runs.length === 0) return null;
  return (
    <section className="space-y-2" aria-label="Recent runs">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Recent runs</h2>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white text-sm">
        {runs.slice(0, 10).map((run) => (
          <li key={run.id}>
            <button
              type="button"
              onClick={() => onOpen(run.id)}
              data-testid="recent-run"
              data-status={run.status}
              className="flex w-full flex-wrap items-center gap-x-3 px-3 py-2 text-left hover:bg-slate-50"
            >
              <span className="font-medium">{BULK_RUN_LABELS[run.kind]}</span>
              <span className="text-slate-600" data-testid="run-where">
                {run.organizationName} · {groupNames(run.accountGroups.map((group) => group.accountGroupName))} · by{' '}
                {run.requestedBy}
              </span>
              <span className="text-slate-600">
                {run.totals.done} done, {run.totals.failed} failed, {run.totals.skipped} skipped of {run.totals.total}
              </span>
              <Badge>{run.status}</Badge>
              {run.undoneBy && <Badge tone="amber">undone</Badge>}
              <span className="ml-auto text-xs text-slate-500">{dateTime(run.createdAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
