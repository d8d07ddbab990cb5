import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { CUSTOMER_STATE_LABELS, CUSTOMER_STATES, PATHS, type CustomerState, type PortfolioEntry } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Select } from '../../../components/ui/field';
import { userCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { usePortfolio } from '../api/portfolio';
import { ExportFleetButton, PackCell } from './portfolio-packs';
import { dateTime } from '../../../lib/dates';

const when = (iso: string | null) => (iso ? dateTime(iso) : '—');

/** A state's colour: the row's left edge and its pill (the words say it too, for every reader). */
const STATE_TONE: Record<CustomerState, { edge: string; pill: string }> = {
  red: { edge: 'border-l-4 border-l-red-600', pill: 'bg-red-100 text-red-900' },
  amber: { edge: 'border-l-4 border-l-amber-500', pill: 'bg-amber-100 text-amber-900' },
  green: { edge: 'border-l-4 border-l-green-600', pill: 'bg-green-100 text-green-900' },
};

const COLUMNS: ColumnDef<PortfolioEntry, unknown>[] = [
  {
    id: 'state',
    header: 'State',
    accessorFn: (entry) => CUSTOMER_STATES.indexOf(entry.state),
    cell: ({ row: { original } }) => (
      <span className="flex flex-col gap-1" data-testid="portfolio-state" data-state={original.state}>
        <span className={`w-fit rounded px-1.5 py-0.5 text-xs font-semibold ${STATE_TONE[original.state].pill}`}>
          {CUSTOMER_STATE_LABELS[original.state]}
        </span>
        <span className="text-sm" data-testid="portfolio-reason">
          {original.reasons.join('; ')}
        </span>
      </span>
    ),
  },
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
    id: 'pack',
    header: 'Review pack',
    accessorFn: (entry) => entry.nextPackDue ?? '',
    cell: ({ row: { original } }) => <PackCell entry={original} />,
  },
  {
    id: 'next',
    header: 'Next run',
    accessorFn: (entry) => entry.nextRunAt ?? '',
    cell: ({ row: { original } }) => when(original.nextRunAt),
  },
];

/** My customers: a triage list of every watched organization, worst first, each with its state and why. */
export function Portfolio() {
  const { data: user } = useSession();
  const mayAll = userCan(user, 'seeAllRuns');
  // The fleet summary reads what the watches' health checks measured.
  const mayMeasure = userCan(user, 'healthCheck');
  const [everyone, setEveryone] = useState(false);
  const [owner, setOwner] = useState('');
  const [state, setState] = useState<CustomerState | ''>('');
  const portfolio = usePortfolio(everyone && mayAll);
  const owners = useMemo(
    () => [...new Set((portfolio.data ?? []).flatMap((entry) => entry.owners))].sort(),
    [portfolio.data],
  );
  const shown = (portfolio.data ?? []).filter(
    (entry) => (!owner || entry.owners.includes(owner)) && (!state || entry.state === state),
  );
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
            onChange={(event) => {
              setEveryone(event.target.value === 'everyone');
              setOwner('');
            }}
            options={[
              { value: 'mine', label: 'Mine' },
              { value: 'everyone', label: "Everyone's" },
            ]}
          />
        )}
        {everyone && mayAll && (
          <Select
            label="Owner"
            value={owner}
            onChange={(event) => setOwner(event.target.value)}
            options={[{ value: '', label: 'Every owner' }, ...owners.map((email) => ({ value: email, label: email }))]}
          />
        )}
        <Select
          label="State"
          value={state}
          onChange={(event) => {
            const value = event.target.value;
            setState((CUSTOMER_STATES as readonly string[]).includes(value) ? (value as CustomerState) : '');
          }}
          options={[
            { value: '', label: 'Every state' },
            ...CUSTOMER_STATES.map((value) => ({ value, label: CUSTOMER_STATE_LABELS[value] })),
          ]}
        />
        {mayMeasure && (portfolio.data?.length ?? 0) > 0 && <ExportFleetButton everyone={everyone && mayAll} />}
      </div>
      <p className="text-sm text-slate-600">
        Every customer you watch, worst first: red needs you now, amber to keep an eye on, green is fine.
        {everyone && mayAll && ' Everyone’s: the owners say whose.'}
      </p>
      <DataTable
        label="My customers"
        data={shown}
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
        rowProps={(entry) => ({
          'data-testid': 'portfolio-row',
          'data-state': entry.state,
          className: STATE_TONE[entry.state].edge,
        })}
      />
    </section>
  );
}
