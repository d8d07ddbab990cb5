import type { RestorePlan } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirmation } from '../../../components/ui/confirm-dialog';
import { FieldList } from './field-list';

/** What the restore would do, item by item (create, update, unchanged, delete, or cannot and why), and Apply. */
export function RestorePlanView({
  plan,
  starting,
  onApply,
}: {
  plan: RestorePlan;
  starting: boolean;
  /** Starts the restore; the confirmation stays open (the error toast says why) when it is refused. */
  onApply: () => Promise<unknown>;
}) {
  const confirmation = useConfirmation();
  const writes = plan.steps.some((step) => WRITES.has(step.status));
  return (
    <div className="min-w-0 space-y-2">
      <table className="w-full table-fixed text-left text-sm [overflow-wrap:anywhere]" aria-label="Restore plan">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">Item</th>
            <th className="w-24 py-1">Plan</th>
            <th className="py-1">Details</th>
          </tr>
        </thead>
        <tbody>
          {plan.steps.map((step) => (
            <tr key={`${step.kind}/${step.key}`} className="border-t border-slate-100 align-top">
              <td className="py-1">
                {step.name} <span className="text-xs text-slate-500">{step.kind}</span>
              </td>
              <td className="py-1">
                <Badge tone={step.status === 'cannot' ? 'danger' : step.status === 'unchanged' ? 'neutral' : 'sky'}>
                  {step.status}
                </Badge>
              </td>
              <td className="py-1 text-xs text-slate-600">
                <StepDetails step={step} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!writes && (
        <p className="text-sm" role="status" data-testid="nothing-to-restore">
          {nothingToRestore(plan)}
        </p>
      )}
      {writes && (
        <Button
          variant="primary"
          busy={starting}
          busyLabel="Starting"
          onClick={() =>
            confirmation.ask({
              title: `Restore into ${plan.accountGroupName}?`,
              body: (
                <>
                  <p>{restoreSummary(plan)}</p>
                  <p className="mt-2 text-sm text-slate-600">The restore can be undone from its results.</p>
                </>
              ),
              confirm: 'Restore now',
              busy: 'Starting',
              run: onApply,
            })
          }
        >
          Apply Restore
        </Button>
      )}
      {confirmation.dialog}
    </div>
  );
}

type Step = RestorePlan['steps'][number];
/** The steps that write something. */
const WRITES: ReadonlySet<Step['status']> = new Set(['create', 'update', 'delete']);

/** A step's details: why it cannot be restored, or its rename back and the fields it changes, in words. */
function StepDetails({ step }: { step: Step }) {
  if (step.reason) return <>{step.reason}</>;
  const renamed = step.previousName !== undefined && step.previousName !== step.name;
  // The name's own difference is the rename, said once.
  const fields = renamed
    ? step.differences.filter((field) => !(field.before === step.previousName && field.after === step.name))
    : step.differences;
  return (
    <span className="grid min-w-0 gap-0.5">
      {renamed && (
        <span className="text-slate-700" data-testid="renamed-back">
          renamed back from '{step.previousName}' to '{step.name}'
        </span>
      )}
      {step.differences.length > 0 && <FieldList fields={fields} raw={step.differences} />}
    </span>
  );
}

/** Why a plan offers no restore: nothing it would write. */
export function nothingToRestore(plan: RestorePlan): string {
  return plan.steps.every((step) => step.status === 'unchanged')
    ? 'Nothing to restore: the chosen items are as the backup has them.'
    : 'Nothing to restore: the chosen items are as the backup has them, or cannot be restored (see why above).';
}

/** What applying a plan writes, in words: "This creates 2 items, updates 1 and deletes 1 in Acme - APAC Offices." */
export function restoreSummary(plan: RestorePlan): string {
  const count = (status: Step['status']) => plan.steps.filter((step) => step.status === status).length;
  const said = (
    [
      ['creates', count('create')],
      ['updates', count('update')],
      ['deletes', count('delete')],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([verb, n], index) => `${verb} ${n}${index === 0 ? (n === 1 ? ' item' : ' items') : ''}`);
  if (said.length === 0) return `Nothing changes in ${plan.accountGroupName}.`;
  const words = said.length === 1 ? said.join('') : `${said.slice(0, -1).join(', ')} and ${said.at(-1) ?? ''}`;
  return `This ${words} in ${plan.accountGroupName}.`;
}
