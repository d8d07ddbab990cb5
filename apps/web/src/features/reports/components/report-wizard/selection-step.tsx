import { useMemo, useState } from 'react';
import { useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { TAM_DAYS_RANGES, type ReportAccountGroup, type ReportKind } from '@ce/contract';
import { CheckList } from '../../../../components/ui/check-list';
import { Select, TextArea, TextInput } from '../../../../components/ui/field';
import { isClosure, type WizardValues } from './form';

const byName = (group: ReportAccountGroup, needle: string) => group.accountGroupName.toLowerCase().includes(needle);

export interface SelectionStepProps {
  form: UseFormReturn<WizardValues>;
  kind: ReportKind | null;
  needsAccounts: boolean;
  organizations: { value: string; label: string }[];
  /** The account groups of the chosen organization. */
  groups: ReportAccountGroup[];
  /** The search in the account groups (kept by the wizard while it is open). */
  search: string;
  onSearchChange: (search: string) => void;
}

/** Step 2: the organization, its account groups, and the kind's own details (closure, TAM activity). */
export function SelectionStep({
  form,
  kind,
  needsAccounts,
  organizations,
  groups,
  search,
  onSearchChange,
}: SelectionStepProps) {
  const accountGroups = useController({ control: form.control, name: 'accountGroups' });
  const organizationId = useWatch({ control: form.control, name: 'organizationId' });
  const selected = useMemo(() => new Set(accountGroups.field.value), [accountGroups.field.value]);
  const errors = form.formState.errors;
  // The warning waits for a touch of the list: before it, nobody has chosen wrong yet.
  const [touched, setTouched] = useState(false);
  return (
    <>
      <Select
        label="Organization"
        placeholder="Select an organization"
        options={organizations}
        {...form.register('organizationId', {
          // A new organization starts a new choice (spec section 4).
          onChange: () => {
            form.setValue('accountGroups', [], { shouldValidate: true });
            setTouched(false);
            onSearchChange('');
          },
        })}
      />
      {organizationId && (
        <CheckList
          items={groups}
          itemKey={(group) => group.aid}
          renderItem={(group) => <span className="truncate">{group.accountGroupName}</span>}
          matches={byName}
          selected={selected}
          onSelectedChange={(next) => {
            setTouched(true);
            accountGroups.field.onChange([...next]);
          }}
          label="Account groups"
          searchLabel="Search account groups"
          emptyText="No account group matches."
          search={search}
          onSearchChange={onSearchChange}
        />
      )}
      {organizationId &&
        needsAccounts &&
        selected.size === 0 &&
        (touched ? (
          <p className="text-sm text-amber-700" data-testid="groups-warning">
            Please select at least one account group
          </p>
        ) : (
          <p className="text-sm text-slate-600">Tick the account groups the report covers.</p>
        ))}
      {isClosure(kind) && (
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium">Details for the document (optional)</legend>
          <TextInput
            label="Engagement name"
            {...form.register('engagementName')}
            error={errors.engagementName?.message}
          />
          <TextInput
            label="Customer contact"
            {...form.register('customerContact')}
            error={errors.customerContact?.message}
          />
          <TextArea label="Notes" rows={3} {...form.register('notes')} error={errors.notes?.message} />
        </fieldset>
      )}
      {kind === 'tam-activity' && (
        <Select
          label="Days range"
          options={TAM_DAYS_RANGES.map((days) => ({ value: String(days), label: String(days) }))}
          {...form.register('tamDays', { valueAsNumber: true })}
        />
      )}
    </>
  );
}
