import { useMemo, useState } from 'react';
import type { ReportAccountGroup } from '@ce/contract';
import { toggled } from './styles';

export interface GroupSelectProps {
  groups: ReportAccountGroup[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** Search by account group or organization name, Select All (filtered), Deselect All, a checkbox list. */
export function GroupSelect({ groups, selected, onChange }: GroupSelectProps) {
  const [search, setSearch] = useState('');
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle
      ? groups.filter(
          (group) =>
            group.accountGroupName.toLowerCase().includes(needle) ||
            group.organizationName.toLowerCase().includes(needle),
        )
      : groups;
  }, [groups, search]);
  const update = (change: (next: Set<string>) => void) => {
    const next = new Set(selected);
    change(next);
    onChange(next);
  };
  return (
    <div className="space-y-2">
      <input
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Search account groups or organizations"
        aria-label="Search account groups"
        className="w-full rounded-md border border-slate-300 px-3 py-2"
      />
      <div className="flex gap-2 text-sm">
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1"
          onClick={() => update((next) => filtered.forEach((group) => next.add(group.aid)))}
        >
          Select All
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1"
          onClick={() => update((next) => filtered.forEach((group) => next.delete(group.aid)))}
        >
          Deselect All
        </button>
        <span className="ml-auto self-center text-slate-500">
          {selected.size} of {groups.length} selected
        </span>
      </div>
      <ul className="max-h-64 overflow-y-auto rounded-md border border-slate-200" aria-label="Account groups">
        {filtered.map((group) => (
          <li key={group.aid} className="border-b border-slate-100 last:border-0">
            <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 hover:bg-slate-50">
              <input
                type="checkbox"
                checked={selected.has(group.aid)}
                onChange={() => onChange(toggled(selected, group.aid))}
              />
              <span>{group.accountGroupName}</span>
              <span className="ml-auto text-xs text-slate-500">{group.organizationName}</span>
            </label>
          </li>
        ))}
        {filtered.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">No account group matches.</li>}
      </ul>
    </div>
  );
}
