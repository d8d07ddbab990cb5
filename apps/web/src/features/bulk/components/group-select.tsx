import type { ReportAccountGroup } from '@ce/contract';
import { CheckList } from '../../../components/ui/check-list';

export interface GroupSelectProps {
  groups: ReportAccountGroup[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** Spec section 2: the search matches the account group's or the organization's name, case-insensitive. */
const byGroupOrOrganization = (group: ReportAccountGroup, needle: string) =>
  group.accountGroupName.toLowerCase().includes(needle) || group.organizationName.toLowerCase().includes(needle);

/** The bulk tools' account-group step: the kit's checklist, each row naming its organization. */
export function GroupSelect({ groups, selected, onChange }: GroupSelectProps) {
  return (
    <CheckList
      items={groups}
      itemKey={(group) => group.aid}
      renderItem={(group) => (
        <>
          <span className="truncate">{group.accountGroupName}</span>
          <span className="ml-auto shrink-0 text-xs text-slate-500">{group.organizationName}</span>
        </>
      )}
      matches={byGroupOrOrganization}
      selected={selected}
      onSelectedChange={onChange}
      label="Account groups"
      searchLabel="Search account groups"
      searchPlaceholder="Search account groups or organizations"
      emptyText="No account group matches."
    />
  );
}
