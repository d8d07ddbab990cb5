import type { RestorePlan } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';

/** What the restore would do, item by item (create, update, unchanged, delete, or cannot and why), and Apply. */
export function RestorePlanView({
  plan,
  starting,
  onApply,
}: {
  plan: RestorePlan;
  starting: boolean;
  onApply: () => void;
}) {
  return (
    <div className="space-y-2">
      <table className="w-full text-left text-sm" aria-label="Restore plan">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">Item</th>
            <th className="py-1">Plan</th>
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
                {step.reason ??
                  step.differences
                    .map((field) => `${field.path}: ${field.before ?? '(none)'} → ${field.after ?? '(none)'}`)
                    .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button variant="primary" busy={starting} busyLabel="Starting" onClick={onApply}>
        Apply Restore
      </Button>
    </div>
  );
}
