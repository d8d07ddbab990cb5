import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';

export interface PickerGroup {
  aid: string;
  accountGroupName: string;
}

export interface AccountGroupPickerProps {
  groups: PickerGroup[];
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  search: string;
  onSearchChange: (search: string) => void;
}

const ROW_HEIGHT = 32;

/** Case-insensitive substring on the account group's name (spec section 5). */
export function filterGroups(groups: PickerGroup[], search: string): PickerGroup[] {
  const needle = search.trim().toLowerCase();
  return needle ? groups.filter((group) => group.accountGroupName.toLowerCase().includes(needle)) : groups;
}

/**
 * Search, a checkbox list 16rem high, and Select All / Deselect All / Invert acting on the filtered
 * list. Only the visible rows are rendered, so ten thousand groups stay fast.
 */
export function AccountGroupPicker({
  groups,
  selected,
  onSelectedChange,
  search,
  onSearchChange,
}: AccountGroupPickerProps) {
  const filtered = useMemo(() => filterGroups(groups, search), [groups, search]);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer returns functions that are read during render on purpose.
  const virtualizer = useVirtualizer({
    count: filtered.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });

  const apply = (change: (next: Set<string>, aid: string) => void) => {
    const next = new Set(selected);
    for (const group of filtered) change(next, group.aid);
    onSelectedChange(next);
  };
  const toggle = (aid: string) => {
    const next = new Set(selected);
    if (next.has(aid)) next.delete(aid);
    else next.add(aid);
    onSelectedChange(next);
  };

  return (
    <div className="space-y-2">
      <input
        type="search"
        aria-label="Search account groups"
        placeholder="Search account groups"
        value={search}
        onChange={(event) => onSearchChange(event.target.value)}
        className="w-full rounded-md border border-slate-300 px-3 py-2"
      />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          onClick={() => apply((next, aid) => next.add(aid))}
        >
          Select All
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          onClick={() => apply((next, aid) => next.delete(aid))}
        >
          Deselect All
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
          onClick={() => apply((next, aid) => (next.has(aid) ? next.delete(aid) : next.add(aid)))}
        >
          Invert
        </button>
        <span className="ml-auto text-slate-500" data-testid="picker-count">
          {selected.size} selected · {filtered.length} shown of {groups.length}
        </span>
      </div>
      <div
        ref={scroller}
        // 16rem is the spec's list height; inline, so it holds wherever the picker is rendered.
        style={{ height: '16rem' }}
        className="overflow-y-auto rounded-md border border-slate-200"
        data-testid="account-group-list"
      >
        {filtered.length === 0 ? (
          <p className="p-3 text-sm text-slate-500">No account group matches.</p>
        ) : (
          <ul aria-label="Account groups" className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const group = filtered[item.index];
              if (!group) return null;
              return (
                <li
                  key={group.aid}
                  className="absolute right-0 left-0 px-3"
                  style={{ top: item.start, height: ROW_HEIGHT }}
                >
                  <label className="flex h-full cursor-pointer items-center gap-2 text-sm">
                    <input type="checkbox" checked={selected.has(group.aid)} onChange={() => toggle(group.aid)} />
                    <span className="truncate">{group.accountGroupName}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
