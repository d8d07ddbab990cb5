import {
  ALERTS_MIGRATION_MESSAGES,
  type MigrationDecision,
  type MigrationPlan,
  type MigrationPlanItem,
} from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';

const STATUS: Record<MigrationPlanItem['status'], { tone: BadgeTone; label: string }> = {
  create: { tone: 'success', label: 'create' },
  update: { tone: 'sky', label: 'update' },
  unchanged: { tone: 'neutral', label: 'unchanged' },
  conflict: { tone: 'danger', label: 'conflict' },
  skip: { tone: 'amber', label: 'skip' },
  delete: { tone: 'purple', label: 'delete from source' },
};

/** A plan's count of one status in words: "5 conflicts", "3 to create", "1 unchanged". */
function totalInWords(status: string, count: number): string {
  const plural = count === 1 ? '' : 's';
  switch (status) {
    case 'conflict':
      return `${count} conflict${plural}`;
    case 'unchanged':
      return `${count} unchanged`;
    case 'delete':
      return `${count} to delete from the source`;
    case 'create':
    case 'update':
    case 'skip':
      return `${count} to ${status}`;
    default:
      return `${count} ${status}`;
  }
}

const CHOICES = [
  { value: '', label: 'Decide…' },
  { value: 'skip', label: 'Skip it' },
  { value: 'update', label: 'Update the existing rule' },
  { value: 'rename', label: 'Create under a new name' },
] as const;

const decisionKey = (item: Pick<MigrationPlanItem, 'sourceId' | 'aid'>) => `${item.sourceId}\u0000${item.aid}`;

/** The plan's rules that would arrive with no test and no recipient, in words: "Latency in Globex - Web". */
export const unableToAlert = (plan: MigrationPlan) =>
  plan.items.filter((item) => item.unableToAlert).map((item) => `${item.name} in ${item.accountGroupName}`);

/** Which rules would arrive unable to alert anyone, said before applying, with the choice to leave them out. */
function UnableToAlert({ names, onLeaveOut }: { names: string[]; onLeaveOut?: () => void }) {
  return (
    <div
      role="status"
      aria-label="Rules unable to alert"
      className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="font-medium">
        {names.length === 1 ? '1 rule' : `${names.length} rules`} would arrive with no test and no recipient, so{' '}
        {names.length === 1 ? 'it' : 'they'} could never alert anyone:
      </p>
      <ul className="list-disc pl-5">
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      {onLeaveOut && (
        <Button size="sm" onClick={onLeaveOut}>
          Leave {names.length === 1 ? 'it' : 'them'} out
        </Button>
      )}
    </div>
  );
}

/** The plan, before anything is written: per rule and target what happens, the differences, what is dropped. */
export function PlanView({
  plan,
  decisions,
  onDecide,
  onLeaveOut,
}: {
  plan: MigrationPlan;
  decisions: ReadonlyMap<string, MigrationDecision['choice']>;
  onDecide: (item: MigrationPlanItem, choice: MigrationDecision['choice'] | null) => void;
  /** Plans again leaving out the rules that would arrive unable to alert. */
  onLeaveOut?: () => void;
}) {
  const totals = Object.entries(plan.totals);
  const silent = unableToAlert(plan);
  return (
    <section className="space-y-3" aria-label="Plan">
      <h2 className="text-xl font-semibold">Plan</h2>
      <p className="text-sm text-slate-600" data-testid="plan-totals">
        {totals.map(([status, count]) => totalInWords(status, count)).join(' · ')}
        {' · '}
        {plan.writes} write{plan.writes === 1 ? '' : 's'} into the customer&apos;s account
      </p>
      {plan.problems.length > 0 && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-medium">This migration cannot be applied: nothing has been written.</p>
          <ul className="mt-1 list-disc pl-5" aria-label="What stops the migration">
            {plan.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {silent.length > 0 && <UnableToAlert names={silent} onLeaveOut={onLeaveOut} />}
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full text-left text-sm" aria-label="Planned changes">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">Item</th>
              <th className="px-3 py-2">Account group</th>
              <th className="px-3 py-2">Plan</th>
              <th className="px-3 py-2">Details</th>
            </tr>
          </thead>
          <tbody>
            {plan.items.map((item) => {
              const decided = decisions.get(decisionKey(item));
              return (
                <tr
                  key={`${item.kind}:${decisionKey(item)}:${item.status}`}
                  className="border-t border-slate-100 align-top"
                >
                  <td className="px-3 py-2">
                    <div className="font-medium">{item.name}</div>
                    {item.kind === 'suppression-window' && (
                      <div className="text-xs text-slate-500">suppression window</div>
                    )}
                  </td>
                  <td className="px-3 py-2">{item.accountGroupName}</td>
                  <td className="px-3 py-2">
                    <Badge tone={STATUS[item.status].tone}>{STATUS[item.status].label}</Badge>
                    {item.status === 'conflict' && (
                      <select
                        aria-label={`What to do with ${item.name} in ${item.accountGroupName}`}
                        className="mt-2 block rounded-md border border-slate-300 px-2 py-1"
                        value={decided ?? ''}
                        onChange={(event) =>
                          onDecide(item, (event.target.value || null) as MigrationDecision['choice'] | null)
                        }
                      >
                        {CHOICES.map((choice) => (
                          <option key={choice.value} value={choice.value}>
                            {choice.label}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td className="space-y-1 px-3 py-2">
                    {item.reason && item.status !== 'conflict' && <p className="text-slate-600">{item.reason}</p>}
                    {item.unableToAlert && <p className="text-amber-800">{ALERTS_MIGRATION_MESSAGES.unableToAlert}</p>}
                    {item.differences.length > 0 && (
                      <dl
                        className="grid grid-cols-[auto_1fr] gap-x-3 text-xs"
                        aria-label={`Differences of ${item.name}`}
                      >
                        {item.differences.map((difference) => (
                          <div key={difference.field} className="contents">
                            <dt className="font-mono text-slate-500">{difference.field}</dt>
                            <dd>
                              <span className="text-red-700 line-through">{difference.before}</span>
                              {' → '}
                              <span className="text-green-800">{difference.after}</span>
                            </dd>
                          </div>
                        ))}
                      </dl>
                    )}
                    {item.dropped.length > 0 && (
                      <ul className="text-xs text-amber-800" aria-label={`Dropped from ${item.name}`}>
                        {item.dropped.map((reference) => (
                          <li key={`${reference.kind}:${reference.name}`}>
                            Dropped {reference.kind} {reference.name}: {reference.reason}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export { decisionKey };
