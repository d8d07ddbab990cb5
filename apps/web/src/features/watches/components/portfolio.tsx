import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS, type PortfolioEntry } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Select } from '../../../components/ui/field';
import { userCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { usePortfolio } from '../api/watches';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

const COLUMNS: ColumnDef<PortfolioEntry, unknown>[] = [
  {
    id: 'customer',
    header: 'Customer',
    accessorFn: (entry) => entry.organizationName,
    cell: ({ row: { original } }) => (
      <span className="flex flex-col">
        <Link
          to={`${PATHS.customers}/${encodeURIComponent(original.organizationId)}#watch-heading`}
          className="font-medium text-brand-800 underline"
        >
          {original.organizationName}
        </Link>
        {original.commonRegressions.length > 0 && (
          <span className="text-xs text-amber-800">
            Common to 3 or more customers this week (likely a platform change): {original.commonRegressions.join(', ')}
          </span>
        )}
      </span>
    ),
  },
  {
    id: 'owners',
    header: 'Owners',
    accessorFn: (entry) => entry.owners.join(', '),
    cell: ({ row: { original } }) => <span className="break-all">{original.owners.join(', ')}</span>,
  },
  {
    id: 'score',
    header: 'Score',
    accessorFn: (entry) => entry.score ?? -1,
    cell: ({ row: { original } }) => original.score ?? '—',
  },
  {
    id: 'trend',
    header: 'Trend (last 4)',
    accessorFn: (entry) => entry.change ?? 0,
    cell: ({ row: { original } }) =>
      original.trend.length > 1 ? (
        <span className="whitespace-nowrap">
          {original.trend.join(' → ')}{' '}
          {original.change !== null && original.change !== 0 && (
            <Badge tone={original.change < 0 ? 'danger' : 'success'}>
              {original.change > 0 ? '+' : ''}
              {original.change}
            </Badge>
          )}
        </span>
      ) : (
        '—'
      ),
  },
  {
    id: 'backup',
    header: 'Last backup',
    accessorFn: (entry) => entry.lastBackupAt ?? '',
    cell: ({ row: { original } }) =>
      original.lastBackupAt
        ? `${when(original.lastBackupAt)}${original.driftSinceBackup ? ` (${original.driftSinceBackup} changed since the one before)` : ''}`
        : '—',
  },
  {
    id: 'findings',
    header: 'Findings',
    accessorFn: (entry) => entry.openFindings ?? 0,
    cell: ({ row: { original } }) =>
      `${original.openFindings ?? '—'} open${original.waivedFindings ? `, ${original.waivedFindings} waived` : ''}`,
  },
  {
    id: 'watches',
    header: 'Watches',
    accessorFn: (entry) => entry.watches,
    cell: ({ row: { original } }) =>
      original.pausedWatches > 0 ? (
        <span>
          {original.watches} <Badge tone="warning">{original.pausedWatches} paused</Badge>
        </span>
      ) : (
        `${original.watches} active`
      ),
  },
  {
    id: 'next',
    header: 'Next run',
    accessorFn: (entry) => entry.nextRunAt ?? '',
    cell: ({ row: { original } }) => when(original.nextRunAt),
  },
];

/** My customers: every watched organization, those in decline first. */
export function Portfolio() {
  const { data: user } = useSession();
  const mayAll = userCan(user, 'seeAllRuns');
  const [everyone, setEveryone] = useState(false);
  const portfolio = usePortfolio(everyone && mayAll);
  return (
    <section aria-labelledby="portfolio-heading" className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="portfolio-heading" className="text-xl font-semibold">
          My customers
        </h2>
        {mayAll && (
          <Select
            label="Whose"
            value={everyone ? 'everyone' : 'mine'}
            onChange={(event) => setEveryone(event.target.value === 'everyone')}
            options={[
              { value: 'mine', label: 'Mine' },
              { value: 'everyone', label: "Everyone's" },
            ]}
          />
        )}
      </div>
      <p className="text-sm text-slate-600">Every customer you watch, those whose score fell the most first.</p>
      <DataTable
        label="My customers"
        data={portfolio.data ?? []}
        // Whose watches they are: always the reader's own in "Mine".
        columns={everyone && mayAll ? COLUMNS : COLUMNS.filter((column) => column.id !== 'owners')}
        getRowId={(entry) => entry.organizationId}
        empty={
          portfolio.isPending
            ? 'Loading…'
            : portfolio.isError
              ? 'My customers could not be read.'
              : 'You watch no customer yet: open a customer’s page and add a watch.'
        }
        rowProps={() => ({ 'data-testid': 'portfolio-row' })}
      />
    </section>
  );
}
