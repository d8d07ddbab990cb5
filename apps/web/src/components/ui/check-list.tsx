import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';

export interface CheckListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** What a row shows (it also names the row's checkbox). */
  renderItem: (item: T) => ReactNode;
  /** Whether an item matches what was typed in the search box (already trimmed and lower-cased). */
  matches: (item: T, needle: string) => boolean;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  /** The list's accessible name, for example "Account groups". */
  label: string;
  searchLabel: string;
  searchPlaceholder?: string;
  emptyText?: string;
  /** The search text, when the caller keeps it (a new organization clears it, say). */
  search?: string;
  onSearchChange?: (search: string) => void;
  rowHeight?: number;
  /** The scrolling area's height; the spec's lists are 16rem. */
  height?: string;
  /** Names the buttons' rows: "Select All Agents". Without it, "Select All". */
  noun?: string;
  /**
   * Whether the list shows its own search box, buttons and count. Lists that share one search and one
   * set of buttons (a list per account group, say) turn them off and pass `search` in.
   */
  controls?: boolean;
  /**
   * `fixed` (the default): every row `rowHeight` tall, and past CHECKLIST_ROWS_ALL_UP_TO rows only those in view are
   * drawn. `growing`: each row as tall as what it holds (long names and a change's words wrap, nothing is painted
   * over the next row or cut mid-value), CHECKLIST_GROWING_PAGE rows at first and more on request; `height` is then
   * the most the box grows to. The buttons act on every row the search matches, drawn or not.
   */
  rows?: 'fixed' | 'growing';
  'data-testid'?: string;
}

/** Up to this many rows all are in the page (a short list scrolls as any list); past it, only those in view. */
export const CHECKLIST_ROWS_ALL_UP_TO = 100;

/** Rows a growing list draws at first, and adds with each "Show more". */
export const CHECKLIST_GROWING_PAGE = 200;

/** A CSS length in pixels, for a first guess at the viewport (rem at the browser's default 16px). */
function cssPixels(length: string): number {
  const value = Number.parseFloat(length);
  if (!Number.isFinite(value)) return 256;
  return length.endsWith('rem') ? value * 16 : value;
}

/**
 * A searchable checkbox list: Select All, Deselect All and Invert act on the rows the search shows,
 * and only the rows in view are rendered, so ten thousand items stay fast.
 */
export function CheckList<T>({
  items,
  itemKey,
  renderItem,
  matches,
  selected,
  onSelectedChange,
  label,
  searchLabel,
  searchPlaceholder = searchLabel,
  emptyText = 'Nothing matches.',
  search: controlledSearch,
  onSearchChange,
  rowHeight = 32,
  height = '16rem',
  noun,
  controls = true,
  rows = 'fixed',
  'data-testid': testId,
}: CheckListProps<T>) {
  const [ownSearch, setOwnSearch] = useState('');
  const search = controlledSearch ?? ownSearch;
  const growing = rows === 'growing';
  const [drawn, setDrawn] = useState(CHECKLIST_GROWING_PAGE);
  const setSearch = (next: string) => {
    (onSearchChange ?? setOwnSearch)(next);
    setDrawn(CHECKLIST_GROWING_PAGE);
  };
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? items.filter((item) => matches(item, needle)) : items;
  }, [items, matches, search]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = !growing && filtered.length > CHECKLIST_ROWS_ALL_UP_TO;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer returns functions that are read during render on purpose.
  const virtualizer = useVirtualizer({
    count: filtered.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    enabled: virtual,
    // Rows for the first paint, before the list is measured.
    initialRect: { width: 0, height: cssPixels(height) },
  });
  const named = (action: string) => (noun ? `${action} ${noun}` : action);
  const row = (item: T) => {
    const key = itemKey(item);
    return (
      <label className={`flex cursor-pointer gap-2 text-sm ${growing ? 'min-w-0 items-start' : 'h-full items-center'}`}>
        <input
          type="checkbox"
          className={growing ? 'mt-1 shrink-0' : undefined}
          checked={selected.has(key)}
          onChange={() => toggle(key)}
        />
        {renderItem(item)}
      </label>
    );
  };

  const onFiltered = (change: (next: Set<string>, key: string) => void) => {
    const next = new Set(selected);
    for (const item of filtered) change(next, itemKey(item));
    onSelectedChange(next);
  };
  const toggle = (key: string) =>
    onFiltered((next, each) => each === key && (next.has(key) ? next.delete(key) : next.add(key)));

  return (
    <div className={growing ? 'min-w-0 space-y-2' : 'space-y-2'} data-testid={testId}>
      {controls && (
        <>
          <input
            type="search"
            aria-label={searchLabel}
            placeholder={searchPlaceholder}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-2"
          />
          <div className="flex flex-wrap items-center gap-2">
            <Button size="sm" onClick={() => onFiltered((next, key) => next.add(key))}>
              {named('Select All')}
            </Button>
            <Button size="sm" onClick={() => onFiltered((next, key) => next.delete(key))}>
              {named('Deselect All')}
            </Button>
            <Button
              size="sm"
              onClick={() => onFiltered((next, key) => (next.has(key) ? next.delete(key) : next.add(key)))}
            >
              Invert
            </Button>
            <span className="ml-auto text-sm text-slate-500" data-testid="picker-count">
              {selected.size} selected · {filtered.length} shown of {items.length}
            </span>
          </div>
        </>
      )}
      <div
        ref={scroller}
        // Inline, so the spec's height holds wherever the list is rendered; a short list is no taller than its rows.
        style={virtual ? { height } : { maxHeight: height }}
        // In a read-only form (a disabled fieldset: nothing in it takes focus) the list is shown whole, not as a
        // scrolling box a keyboard could not reach: neither down (no max height) nor sideways (overflow-y auto
        // makes overflow-x auto too, so a long row would still scroll the box). A long (virtual) list is then as tall
        // as its rows, so all of them are in view and drawn.
        className={`${growing ? 'min-w-0 overflow-x-hidden ' : ''}overflow-y-auto rounded-md border border-slate-200 [fieldset:disabled_&]:h-auto! [fieldset:disabled_&]:max-h-none! [fieldset:disabled_&]:overflow-visible`}
      >
        {filtered.length === 0 ? (
          <p className="p-3 text-sm text-slate-500">{emptyText}</p>
        ) : virtual ? (
          <ul aria-label={label} className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((virtualRow) => {
              const item = filtered[virtualRow.index];
              if (item === undefined) return null;
              return (
                <li
                  key={itemKey(item)}
                  className="absolute right-0 left-0 px-3"
                  style={{ top: virtualRow.start, height: rowHeight }}
                >
                  {row(item)}
                </li>
              );
            })}
          </ul>
        ) : growing ? (
          <ul aria-label={label} className="divide-y divide-slate-100">
            {filtered.slice(0, drawn).map((item) => (
              <li key={itemKey(item)} className="px-3 py-1">
                {row(item)}
              </li>
            ))}
          </ul>
        ) : (
          <ul aria-label={label}>
            {filtered.map((item) => (
              <li key={itemKey(item)} className="px-3" style={{ height: rowHeight }}>
                {row(item)}
              </li>
            ))}
          </ul>
        )}
        {growing && filtered.length > drawn && (
          <div className="p-2">
            <Button size="sm" onClick={() => setDrawn((count) => count + CHECKLIST_GROWING_PAGE)}>
              Show {Math.min(filtered.length - drawn, CHECKLIST_GROWING_PAGE)} more of {filtered.length - drawn}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
