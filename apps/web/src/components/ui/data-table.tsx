import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useRef, useState, type HTMLAttributes, type ReactNode } from 'react';

export type { ColumnDef } from '@tanstack/react-table';

export interface DataTableProps<T> {
  data: readonly T[];
  columns: ColumnDef<T, unknown>[];
  /** The table's accessible name. */
  label: string;
  /** What an empty table says (when there is no data, or nothing matches the filter). */
  empty: ReactNode;
  /** Shows a search box filtering every column. */
  filterLabel?: string;
  initialSorting?: SortingState;
  /** Attributes of each row (test ids, a state for styles and tests; `data-highlight="true"` marks it). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };
  getRowId?: (row: T) => string;
  /** Pixels: the rows scroll under a header that stays in view. Without it the table is as tall as its rows. */
  maxHeight?: number;
}

/** A column's heading in words, naming each of its cells where rows are stacked (a phone's width). */
function headingOf<T>(column: ColumnDef<T, unknown>): string | undefined {
  const heading = column.header;
  return typeof heading === 'string' && heading.trim() ? heading : undefined;
}

/** Past this many rows (in a table with a maxHeight) only the rows in view are in the page. */
export const VIRTUAL_ROWS_ABOVE = 200;
const ROW_ESTIMATE_PX = 37;

/**
 * A table on TanStack Table: columns sort by a click on their header (ascending, descending, none), an
 * optional search filters the rows, and an empty table says why.
 */
export function DataTable<T>({
  data,
  columns,
  label,
  empty,
  filterLabel,
  initialSorting = [],
  rowProps,
  getRowId,
  maxHeight,
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [filter, setFilter] = useState('');
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns functions read during render on purpose.
  const table = useReactTable({
    data: data as T[],
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(getRowId ? { getRowId } : {}),
  });
  const rows = table.getRowModel().rows;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = maxHeight !== undefined && rows.length > VIRTUAL_ROWS_ABOVE;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 10,
    enabled: virtual,
    initialRect: { width: 0, height: maxHeight ?? 0 },
  });
  const windowed = virtual ? virtualizer.getVirtualItems() : null;
  const shown = windowed ? windowed.map((item) => rows[item.index]).filter((row) => row !== undefined) : rows;
  // Spacer rows keep the scrollbar true to the whole table while only the rows in view are drawn.
  const before = windowed?.[0]?.start ?? 0;
  const after = windowed ? virtualizer.getTotalSize() - (windowed[windowed.length - 1]?.end ?? 0) : 0;
  return (
    <div className="space-y-2">
      {filterLabel && (
        <input
          type="search"
          aria-label={filterLabel}
          placeholder={filterLabel}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          className="w-full max-w-sm rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
      )}
      <div
        ref={scroller}
        className={`overflow-x-auto rounded-lg border border-slate-200 bg-white ${maxHeight === undefined ? '' : 'overflow-y-auto'}`}
        style={maxHeight === undefined ? undefined : { maxHeight }}
      >
        <table className="stacked-table w-full text-left text-sm" aria-label={label}>
          <thead className={`bg-slate-50 text-slate-600 ${maxHeight === undefined ? '' : 'sticky top-0 z-10'}`}>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const title = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className="px-3 py-2 font-medium"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex min-h-6 items-center gap-1 hover:text-slate-900"
                        >
                          {title}
                          {sorted === 'asc' ? (
                            <ArrowUp className="h-3.5 w-3.5" aria-hidden="true" />
                          ) : sorted === 'desc' ? (
                            <ArrowDown className="h-3.5 w-3.5" aria-hidden="true" />
                          ) : (
                            <ArrowUpDown className="h-3.5 w-3.5 opacity-40" aria-hidden="true" />
                          )}
                        </button>
                      ) : (
                        title
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            ) : (
              <>
                {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
                {shown.map((row) => (
                  <tr
                    key={row.id}
                    className="border-t border-slate-100 align-top data-[highlight=true]:bg-brand-50"
                    {...rowProps?.(row.original)}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className="px-3 py-2" data-label={headingOf(cell.column.columnDef)}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
                {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
              </>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
