import type { ChangeSetItem } from '@ce/contract';
import type { ColumnDef } from '../ui/data-table';
import { ItemStatus } from '../ui/change-set-progress';

/** An item's action in the tool's words ('Create rule'), or its code when the tool has none for it. */
export const actionColumn = (words: Record<string, string>): ColumnDef<ChangeSetItem, unknown> => ({
  id: 'action',
  header: 'Action',
  accessorFn: (item) => words[item.action] ?? item.action,
});

/** The columns a change set's items end with: its status (a pill), the id the platform gave, the outcome. */
export const OUTCOME_COLUMNS: ColumnDef<ChangeSetItem, unknown>[] = [
  {
    id: 'status',
    header: 'Status',
    accessorFn: (item) => item.status,
    cell: ({ row }) => <ItemStatus status={row.original.status} />,
  },
  { id: 'id', header: 'Id', accessorFn: (item) => item.resultId ?? '' },
  { id: 'outcome', header: 'Outcome', accessorFn: (item) => item.error ?? item.note ?? '' },
];
