import type { Backup } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { JobLine } from '../../../components/ui/job-line';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { archiveUrl } from '../api/backups';
import { dateTime } from '../../../lib/dates';

/** A size as the backups list shows it: whole kilobytes. */
export const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;
const kb = (bytes: number | null) => (bytes === null ? '…' : kilobytes(bytes));

/** The backups: search and sort on every column, download, open one to compare or restore, or delete it. */
export function BackupsTable({
  backups,
  onOpen,
  onDelete,
}: {
  backups: Backup[];
  onOpen: (backup: Backup) => void;
  onDelete: (backup: Backup) => void;
}) {
  const deleteButton = (backup: Backup) => (
    <Button size="sm" variant="ghost" className="text-red-700" onClick={() => onDelete(backup)}>
      Delete
    </Button>
  );
  const columns: ColumnDef<Backup, unknown>[] = [
    { id: 'group', header: 'Account group', accessorFn: (backup) => backup.accountGroupName },
    { id: 'organization', header: 'Organization', accessorFn: (backup) => backup.organizationName },
    { id: 'by', header: 'By', accessorFn: (backup) => backup.requestedBy },
    {
      id: 'made',
      header: 'Made',
      accessorFn: (backup) => backup.createdAt,
      cell: ({ row }) => dateTime(row.original.createdAt),
    },
    { id: 'items', header: 'Items', accessorFn: (backup) => backup.items ?? 0 },
    { id: 'size', header: 'Size', accessorFn: (backup) => backup.size ?? 0, cell: ({ row }) => kb(row.original.size) },
    {
      id: 'status',
      header: 'Status',
      accessorFn: (backup) => backup.status,
      cell: ({ row }) => (
        <>
          <Badge
            tone={row.original.status === 'done' ? 'success' : row.original.status === 'failed' ? 'danger' : 'sky'}
          >
            {row.original.origin === 'upload' ? 'uploaded' : row.original.status}
          </Badge>
          <JobLine {...row.original} done={0} total={0} unit="calls" />
        </>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.status === 'done' ? (
          <span className="flex flex-wrap items-center gap-3">
            <a className="text-brand-700 underline" href={archiveUrl(row.original.id)} download>
              Download
            </a>
            <Button size="sm" onClick={() => onOpen(row.original)}>
              Open
            </Button>
            {deleteButton(row.original)}
          </span>
        ) : row.original.status === 'failed' ? (
          <span className="flex flex-wrap items-center gap-3">
            {row.original.error ?? ''}
            {deleteButton(row.original)}
          </span>
        ) : (
          (row.original.error ?? '')
        ),
    },
  ];
  return (
    <DataTable
      data={backups}
      columns={columns}
      label="Backups"
      empty="No backup yet."
      filterLabel="Search backups"
      initialSorting={[{ id: 'made', desc: true }]}
      getRowId={(backup) => backup.id}
      rowProps={(backup) => ({ 'data-status': backup.status })}
      maxHeight={420}
    />
  );
}
