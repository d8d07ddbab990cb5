import { useMemo } from 'react';
import { useController } from 'react-hook-form';
import { OtherOrganizationFields } from '../../../components/customer-fields';
import { CheckList } from '../../../components/ui/check-list';
import type { Customer } from '../../../lib/use-customer';
import type { MigrationFormApi } from '../migration-form';

export type Group = { aid: string; accountGroupName: string };
const byName = (group: Group, needle: string) => group.accountGroupName.toLowerCase().includes(needle);

/** Where the rules go: groups of the source's organization, or of another one with its own token. */
export function TargetsStep({
  form,
  other,
  groups,
}: {
  form: MigrationFormApi;
  /** The other organization's token step. */
  other: Customer;
  /** The groups the targets are chosen among. */
  groups: Group[];
}) {
  const { field: elsewhere } = useController({ control: form.control, name: 'elsewhere' });
  const { field: targets } = useController({ control: form.control, name: 'targets' });
  const selected = useMemo(() => new Set(targets.value), [targets.value]);
  return (
    <section className="space-y-3" aria-label="Targets">
      <h2 className="text-xl font-semibold">Targets</h2>
      <OtherOrganizationFields
        checked={elsewhere.value}
        onChange={(checked) => {
          elsewhere.onChange(checked);
          form.setValue('targets', []);
        }}
        customer={other}
      />
      {(!elsewhere.value || other.groups) && (
        <CheckList
          items={groups}
          itemKey={(group) => group.aid}
          renderItem={(group) => group.accountGroupName}
          matches={byName}
          selected={selected}
          onSelectedChange={(next) => targets.onChange([...next])}
          label="Target account groups"
          searchLabel="Search target account groups"
          noun="Groups"
          data-testid="targets"
        />
      )}
    </section>
  );
}
