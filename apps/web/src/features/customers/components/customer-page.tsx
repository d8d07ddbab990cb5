import { useMemo, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  TIMELINE_DAYS,
  TIMELINE_TOOL_LABELS,
  TIMELINE_TOOLS,
  WORK_OUTCOME_LABELS,
  type TimelineEntry,
  type TimelineTool,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Select } from '../../../components/ui/field';
import { customerLabel, customers, useCustomers } from '../../../lib/customer';
import { userCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { useCustomerTimeline, type TimelineFilters } from '../api/timeline';
import { TimelineOutcome } from './timeline-outcome';

const isTool = (value: string | null): value is TimelineTool =>
  value !== null && (TIMELINE_TOOLS as readonly string[]).includes(value);

/** The page's filters live in its address, so a link shows the same list. */
function useFilters(): [TimelineFilters, (changes: Partial<TimelineFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const days = Number(params.get('days'));
  const tool = params.get('tool');
  const filters: TimelineFilters = {
    everyone: params.get('everyone') === 'true',
    tool: isTool(tool) ? tool : '',
    person: params.get('person') ?? '',
    days: (TIMELINE_DAYS as readonly number[]).includes(days) ? days : 30,
  };
  const change = (changes: Partial<TimelineFilters>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === '' || value === false) next.delete(name);
        else next.set(name, String(value));
      }
      return next;
    });
  return [filters, change];
}

/**
 * Whether what an entry says already names its tool ("Alerts migration", "Undo of a restore", "Backup",
 * "Dashboard … pushed"): then the tool is not said again under it.
 */
export function namesTool(entry: Pick<TimelineEntry, 'what' | 'tool'>): boolean {
  const what = entry.what.toLowerCase();
  const tool = TIMELINE_TOOL_LABELS[entry.tool].toLowerCase();
  const one = tool.replace(/e?s$/, '');
  const first = (words: string) => words.split(' ')[0]?.replace(/e?s$/, '') ?? '';
  return what.includes(one) || first(what) === first(tool);
}

const COLUMNS: ColumnDef<TimelineEntry, unknown>[] = [
  {
    id: 'when',
    header: 'When',
    accessorFn: (entry) => entry.createdAt,
    cell: ({ row: { original } }) => (
      <time dateTime={original.createdAt} className="whitespace-nowrap">
        {new Date(original.createdAt).toLocaleString()}
      </time>
    ),
  },
  {
    id: 'what',
    header: 'What',
    accessorFn: (entry) => entry.what,
    cell: ({ row: { original } }) => (
      <span className="flex flex-col">
        <Link to={original.path} className="font-medium text-brand-800 underline">
          {original.what}
        </Link>
        {!namesTool(original) && <span className="text-xs text-slate-500">{TIMELINE_TOOL_LABELS[original.tool]}</span>}
      </span>
    ),
  },
  {
    id: 'groups',
    header: 'Account groups',
    accessorFn: (entry) => entry.accountGroups.join(', '),
    cell: ({ getValue }) => String(getValue()) || '—',
  },
  {
    id: 'who',
    header: 'Who',
    accessorFn: (entry) => entry.person.name,
    cell: ({ row: { original } }) => <span title={original.person.email}>{original.person.name}</span>,
  },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (entry) => WORK_OUTCOME_LABELS[entry.outcome],
    cell: ({ row: { original } }) => <TimelineOutcome outcome={original.outcome} />,
  },
];

/**
 * /home/customers/{organization}: everything done for one customer through the toolkit, newest first; `more`
 * adds the sections of other features (the app composes them: Account Watch).
 */
export function CustomerPage({ more }: { more?: (customer: { organizationId: string; name: string }) => ReactNode }) {
  const { organizationId = '' } = useParams();
  const { data: user } = useSession();
  const { current, recent } = useCustomers();
  const [filters, change] = useFilters();
  const mayAll = userCan(user, 'seeAllRuns');
  const timeline = useCustomerTimeline(organizationId, { ...filters, everyone: filters.everyone && mayAll });
  const known = [current, ...recent].find((customer) => customer?.organizationId === organizationId) ?? null;
  const name = timeline.data?.organizationName ?? known?.organizationName ?? `Organization ${organizationId}`;
  const people = useMemo(
    () => (timeline.data?.people ?? []).map((person) => ({ value: person.email, label: person.name })),
    [timeline.data?.people],
  );
  const entries = timeline.data?.entries ?? [];

  return (
    <section className="max-w-6xl space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{name}</h1>
        {current?.organizationId === organizationId ? (
          <Badge tone="info">Your customer now</Badge>
        ) : (
          known && <Button onClick={() => customers.choose(known)}>Work for {known.organizationName}</Button>
        )}
      </div>
      <p className="text-slate-600">
        Everything done for this customer through the toolkit: reports, bulk runs, alerts migrations, backups, restores
        and dashboard pushes, newest first.{' '}
        {current?.organizationId === organizationId && `(${customerLabel(current)})`}
      </p>
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
        <Select
          label="Tool"
          value={filters.tool}
          onChange={(event) => change({ tool: isTool(event.target.value) ? event.target.value : '' })}
          options={[
            { value: '', label: 'Every tool' },
            ...TIMELINE_TOOLS.map((tool) => ({ value: tool, label: TIMELINE_TOOL_LABELS[tool] })),
          ]}
        />
        <Select
          label="Period"
          value={String(filters.days)}
          onChange={(event) => change({ days: Number(event.target.value) })}
          options={TIMELINE_DAYS.map((days) => ({ value: String(days), label: `Last ${days} days` }))}
        />
        {mayAll && (
          <Select
            label="Whose"
            value={filters.everyone ? 'everyone' : 'mine'}
            onChange={(event) => change({ everyone: event.target.value === 'everyone', person: '' })}
            options={[
              { value: 'mine', label: 'Mine' },
              { value: 'everyone', label: "Everyone's" },
            ]}
          />
        )}
        {mayAll && filters.everyone && (
          <Select
            label="Person"
            value={filters.person}
            onChange={(event) => change({ person: event.target.value })}
            options={[{ value: '', label: 'Everyone' }, ...people]}
          />
        )}
      </div>
      <DataTable
        label={`Work for ${name}`}
        data={entries}
        columns={COLUMNS}
        getRowId={(entry) => `${entry.tool}:${entry.id}`}
        initialSorting={[{ id: 'when', desc: true }]}
        empty={
          timeline.isPending
            ? 'Loading…'
            : timeline.isError
              ? 'The work for this customer could not be read.'
              : 'Nothing done for this customer in this period.'
        }
        rowProps={(entry) => ({ 'data-testid': 'timeline-row', 'data-tool': entry.tool })}
      />
      {more?.({ organizationId, name })}
    </section>
  );
}
