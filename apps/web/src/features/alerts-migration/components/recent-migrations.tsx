import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useMigrations } from '../api/runs';
import { dateTime } from '../../../lib/dates';

/** The user's recent migrations and undos, newest first: any can be opened again (results, Undo). */
export function RecentMigrations({ onOpen }: { onOpen: (id: string) => void }) {
  const { data: runs } = useMigrations();
  if (!runs || runs.length === 0) return null;
  return (
    <section className="space-y-2" aria-label="Recent migrations">
      <h2 className="text-lg font-semibold">Recent migrations</h2>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {runs.map((run) => (
          <li key={run.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
            <Button variant="link" onClick={() => onOpen(run.id)}>
              {run.kind === 'undo-alerts-migration' ? 'Undo' : `${run.mode === 'move' ? 'Move' : 'Copy'}`} from{' '}
              {run.sourceAccountGroupName} to {run.targetAccountGroupNames.join(', ')}
            </Button>
            <span className="text-slate-600" data-testid="run-where">
              {run.organizationName}
              {run.targetOrganizationName && run.targetOrganizationName !== run.organizationName
                ? ` → ${run.targetOrganizationName}`
                : ''}{' '}
              · by {run.requestedBy}
            </span>
            <span className="text-slate-500">{dateTime(run.createdAt)}</span>
            <Badge tone={run.status === 'failed' ? 'danger' : run.status === 'done' ? 'success' : 'sky'}>
              {run.status}
            </Badge>
            <span className="text-slate-600">
              {run.totals.done} done · {run.totals.failed} failed
            </span>
            {run.undoneBy && <Badge tone="purple">undone</Badge>}
          </li>
        ))}
      </ul>
    </section>
  );
}
