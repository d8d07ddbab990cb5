import { useMemo } from 'react';
import { useController } from 'react-hook-form';
import { restoreItemRef, type Backup } from '@ce/contract';
import { OtherOrganizationFields } from '../../../components/customer-fields';
import { Badge } from '../../../components/ui/badge';
import { CheckList } from '../../../components/ui/check-list';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import type { Customer } from '../../../lib/use-customer';
import { useBackupItems } from '../api/items';
import type { RestoreFormApi } from '../backup-forms';

/** What to restore (the changes picked, or items of the backup) and where to, then Preview Restore. */
export function RestoreSection({
  backup,
  form,
  other,
  targetGroups,
  planning,
  onPreview,
}: {
  backup: Backup;
  form: RestoreFormApi;
  /** Another organization's token step. */
  other: Customer;
  /** The groups the restore may write into. */
  targetGroups: { aid: string; accountGroupName: string }[];
  planning: boolean;
  onPreview: () => void;
}) {
  const { data: contents } = useBackupItems(backup.id);
  const { field: items } = useController({ control: form.control, name: 'items' });
  const { field: elsewhere } = useController({ control: form.control, name: 'elsewhere' });
  const { field: aid } = useController({ control: form.control, name: 'aid' });
  const picked = useMemo(() => new Set(items.value), [items.value]);
  const options = (
    elsewhere.value || targetGroups.some((group) => group.aid === backup.aid)
      ? targetGroups
      : [{ aid: backup.aid, accountGroupName: backup.accountGroupName }, ...targetGroups]
  ).map((group) => ({ value: group.aid, label: group.accountGroupName }));
  return (
    <div className="min-w-0 space-y-3">
      <h3 className="text-lg font-semibold">Restore</h3>
      <p className="text-sm text-slate-600">
        Put back the changes picked above (into this group), or pick items of the backup to restore here or into another
        group of the organization. Nothing is written before you apply the plan.
      </p>
      {contents && (
        <CheckList
          rows="growing"
          items={contents.items}
          itemKey={restoreItemRef}
          renderItem={(item) => (
            <span className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
              <span className="min-w-0 [overflow-wrap:anywhere]">{item.name}</span>
              <Badge tone="neutral" className="shrink-0">
                {item.kind}
              </Badge>
              {item.masked.length > 0 && (
                <Badge tone="amber" className="max-w-full [overflow-wrap:anywhere]">
                  masked: {item.masked.join(', ')}
                </Badge>
              )}
            </span>
          )}
          matches={(item, needle) => `${item.kind} ${item.name}`.toLowerCase().includes(needle)}
          selected={picked}
          onSelectedChange={(next) => items.onChange([...next])}
          label="Backup items"
          searchLabel="Search the backup's items"
          noun="Items"
          data-testid="backup-items"
        />
      )}
      <OtherOrganizationFields
        checked={elsewhere.value}
        onChange={(checked) => {
          elsewhere.onChange(checked);
          form.setValue('aid', checked ? '' : backup.aid);
        }}
        customer={other}
      />
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Restore into"
          placeholder={elsewhere.value ? 'Choose a group of that organization' : undefined}
          name={aid.name}
          value={aid.value}
          onBlur={aid.onBlur}
          onChange={(event) => aid.onChange(event.target.value)}
          options={options}
          fieldClassName="w-full sm:w-auto sm:min-w-72"
        />
        <Button className="mb-[2px]" busy={planning} busyLabel="Planning" onClick={onPreview}>
          Preview Restore
        </Button>
      </div>
    </div>
  );
}
