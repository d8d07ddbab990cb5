import type { UseFormReturn } from 'react-hook-form';
import { TokenField } from '../../../../components/ui/token-field';
import type { WizardValues } from './form';

/** Step 1: the customer's token; why a check failed shows under it, in the server's words. */
export function TokenStep({
  form,
  problem,
  onEdit,
}: {
  form: UseFormReturn<WizardValues>;
  problem: string | null;
  onEdit: () => void;
}) {
  return (
    <>
      <TokenField
        placeholder="Bearer token of an Org Admin of the customer organization"
        hint="The token is used for this report only and is erased when the report is done."
        {...form.register('token', { onChange: onEdit })}
      />
      {problem && (
        <p role="status" aria-label="Token check" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </>
  );
}
