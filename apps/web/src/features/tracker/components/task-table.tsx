import { useMemo } from 'react';
import type { TaskResult, TrackerRow } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';

export interface TaskGroup {
  engagement: string;
  rows: TrackerRow[];
  hours: number;
}

export interface TaskTableProps {
  groups: TaskGroup[];
  selected: Set<number>;
  /** The engagements the CRM says are closed: flagged, their rows get no task. */
  closed: ReadonlySet<string>;
  onSelectedChange: (next: Set<number>) => void;
  results: Map<number, TaskResult>;
  disabled: boolean;
}

const OUTCOMES: Record<TaskResult['outcome'], { label: string; tone: 'success' | 'info' | 'danger' }> = {
  created: { label: 'Created', tone: 'success' },
  duplicate: { label: 'Already created', tone: 'info' },
  failed: { label: 'Failed', tone: 'danger' },
};

/** The parsed rows, one table per engagement with its total, a checkbox per row and per engagement. */
export function TaskTable({ groups, selected, closed, onSelectedChange, results, disabled }: TaskTableProps) {
  const toggle = (rows: number[], on: boolean) => {
    const next = new Set(selected);
    for (const row of rows) {
      if (on) next.add(row);
      else next.delete(row);
    }
    onSelectedChange(next);
  };
  const columns = useMemo<ColumnDef<TrackerRow, unknown>[]>(
    () => [
      {
        id: 'select',
        header: 'Select',
        enableSorting: false,
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={`Select row ${row.original.row}`}
            checked={selected.has(row.original.row)}
            disabled={disabled}
            onChange={(event) => toggle([row.original.row], event.target.checked)}
          />
        ),
      },
      { header: 'Row', accessorKey: 'row' },
      { header: 'Task type', accessorKey: 'task_type' },
      { header: 'Due date', accessorKey: 'due_date' },
      { header: 'Reference', accessorKey: 'external_reference' },
      {
        header: 'Work performed',
        accessorKey: 'work_performed',
        cell: ({ getValue }) => <span className="line-clamp-2 whitespace-pre-line">{String(getValue())}</span>,
      },
      { header: 'Hours', accessorKey: 'hours_spent' },
      {
        id: 'result',
        header: 'Result',
        enableSorting: false,
        cell: ({ row }) => {
          const result = results.get(row.original.row);
          if (!result) return null;
          const outcome = OUTCOMES[result.outcome];
          return (
            <span className="space-y-1">
              <Badge tone={outcome.tone}>{outcome.label}</Badge>
              <span className="block text-xs text-slate-600">{result.id ?? result.error}</span>
            </span>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggle reads `selected`, listed here
    [selected, results, disabled],
  );
  return (
    <div className="max-h-[50vh] space-y-4 overflow-auto">
      {groups.map((group) => {
        const numbers = group.rows.map((row) => row.row);
        const all = numbers.every((row) => selected.has(row));
        return (
          <section key={group.engagement} aria-label={`Engagement ${group.engagement}`} className="space-y-1">
            <div className="flex items-center justify-between rounded bg-slate-100 px-2 py-1">
              <label className="flex items-center gap-2 font-medium">
                <input
                  type="checkbox"
                  checked={all}
                  disabled={disabled}
                  onChange={(event) => toggle(numbers, event.target.checked)}
                />
                {group.engagement}
                {closed.has(group.engagement) && <Badge tone="danger">Closed in Salesforce</Badge>}
              </label>
              <span className="text-sm" data-testid="engagement-total">
                {group.rows.length} row{group.rows.length === 1 ? '' : 's'} · {group.hours} hour
                {group.hours === 1 ? '' : 's'}
              </span>
            </div>
            <DataTable
              label={`Rows of ${group.engagement}`}
              data={group.rows}
              columns={columns}
              empty="No rows."
              getRowId={(row) => String(row.row)}
              rowProps={(row) => ({ 'data-testid': 'task-row', 'data-outcome': results.get(row.row)?.outcome })}
            />
          </section>
        );
      })}
    </div>
  );
}
