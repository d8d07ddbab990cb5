import { useController } from 'react-hook-form';
import { CustomerFields } from '../../../components/customer-fields';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import type { Customer } from '../../../lib/use-customer';
import type { MigrationFormApi } from '../migration-form';

/** The migration's source: the token, the organization, the account group to take the rules from, Load Rules. */
export function SourceStep({
  source,
  form,
  loading,
  onSourceChange,
  onLoadRules,
}: {
  source: Customer;
  form: MigrationFormApi;
  loading: boolean;
  /** Another source group: its rules, the targets and the plan are asked again. */
  onSourceChange: () => void;
  onLoadRules: () => void;
}) {
  const { field } = useController({ control: form.control, name: 'sourceAid' });
  return (
    <section className="space-y-3" aria-label="Source">
      <h2 className="text-xl font-semibold">Source</h2>
      <CustomerFields customer={source} label="OAuth Token" name="token" />
      {source.groups && (
        <div className="flex flex-wrap items-end gap-3">
          <Select
            label="Source account group"
            placeholder="Choose the account group to take the rules from"
            options={source.inOrganization.map((group) => ({ value: group.aid, label: group.accountGroupName }))}
            name={field.name}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(event) => {
              field.onChange(event.target.value);
              onSourceChange();
            }}
            fieldClassName="min-w-72"
          />
          <Button variant="primary" className="mb-[2px]" busy={loading} busyLabel="Loading rules" onClick={onLoadRules}>
            Load Rules
          </Button>
        </div>
      )}
    </section>
  );
}
