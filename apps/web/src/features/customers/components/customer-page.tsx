import { useMemo, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  TIMELINE_DAYS,
  TIMELINE_TOOL_LABELS,
  TIMELINE_TOOLS,
  WORK_OUTCOME_LABELS,
  type ChangeActorKind,
  type CustomerOverview,
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
import { useCustomerOverview } from '../api/overview';
import { useCustomerTimeline, type TimelineFilters } from '../api/timeline';
import { CustomerHeader } from './customer-header';
import { MeasuredTrends } from './measured-trends';
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
    // This week by default; the last 30 days one click away.
    days: (TIMELINE_DAYS as readonly number[]).includes(days) ? days : 7,
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

/** Who made a change, in a colour that tells ours from theirs (text dark enough on white). */
const ACTOR_TONE: Record<ChangeActorKind, string> = {
  us: 'font-medium text-brand-800',
  customer: 'font-medium text-amber-900',
  unknown: 'text-slate-700',
};

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
    accessorFn: (entry) => entry.by?.words ?? entry.watch?.label ?? entry.person.name,
    // A change at the customer says who made it (us, the customer, unknown); a watch's run is the watch's, not its
    // owner's by hand: said first, the owner under it.
    cell: ({ row: { original } }) =>
      original.by ? (
        <span className={ACTOR_TONE[original.by.kind]} data-testid="change-actor" data-actor={original.by.kind}>
          {original.by.words}
        </span>
      ) : original.watch ? (
        <span className="flex flex-col" data-testid="watch-mark">
          <span className="font-medium text-purple-800">{original.watch.label}</span>
          <span className="text-xs text-slate-600" title={original.person.email}>
            watch of {original.person.name}
          </span>
        </span>
      ) : (
        <span title={original.person.email}>{original.person.name}</span>
      ),
  },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (entry) => WORK_OUTCOME_LABELS[entry.outcome],
    cell: ({ row: { original } }) => <TimelineOutcome outcome={original.outcome} />,
  },
];

/** What the app's other features show on a customer's page (the app composes them). */
export interface CustomerSlots {
  organizationId: string;
  name: string;
  overview: CustomerOverview | undefined;
}

/**
 * /home/customers/{organization}, in the order a TAM works: the header at a glance, what needs attention, what
 * the platform measured over the watches' runs, the watches, then everything done for it through the toolkit,
 * newest first. `attention` and `more` are other features' sections (the app composes them: Account Watch).
 */
export function CustomerPage({
  attention,
  more,
}: {
  attention?: (customer: CustomerSlots) => ReactNode;
  more?: (customer: CustomerSlots) => ReactNode;
}) {
  const { organizationId = '' } = useParams();
  const { data: user } = useSession();
  const { current, recent } = useCustomers();
  const [filters, change] = useFilters();
  const mayAll = userCan(user, 'seeAllRuns');
  const asked = { ...filters, everyone: filters.everyone && mayAll };
  const timeline = useCustomerTimeline(organizationId, asked);
  // The header's period is the timeline's (this week or 30 days), so its counts are the timeline's.
  const overviewDays = filters.days === 7 ? 7 : 30;
  const overview = useCustomerOverview(organizationId, { ...asked, days: overviewDays });
  const known = [current, ...recent].find((customer) => customer?.organizationId === organizationId) ?? null;
  const name =
    timeline.data?.organizationName ??
    overview.data?.organizationName ??
    known?.organizationName ??
    `Organization ${organizationId}`;
  const slots: CustomerSlots = { organizationId, name, overview: overview.data };
  const timelineLink = (tool: string) => {
    const params = new URLSearchParams(window.location.search);
    params.set('tool', tool);
    params.set('days', String(overviewDays));
    return `?${params.toString()}#timeline-heading`;
  };
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
        <span className="flex gap-1" role="group" aria-label="Period">
          {([7, 30] as const).map((days) => (
            <Button
              key={days}
              size="sm"
              variant={filters.days === days ? 'primary' : 'secondary'}
              aria-pressed={filters.days === days}
              onClick={() => change({ days })}
            >
              {days === 7 ? 'This week' : 'Last 30 days'}
            </Button>
          ))}
        </span>
      </div>
      <CustomerHeader
        organizationId={organizationId}
        overview={overview.data}
        periodLabel={overviewDays === 7 ? 'Last 7 days' : 'Last 30 days'}
        timelineLink={timelineLink}
        mayLink={userCan(user, 'tools')}
      />
      {overview.isError && <p className="text-sm text-red-700">This customer’s overview could not be read.</p>}
      {attention?.(slots)}
      <MeasuredTrends
        organizationId={organizationId}
        days={filters.days}
        everyone={asked.everyone}
        watchLink="#watch-heading"
      />
      {more?.(slots)}
      <h2 id="timeline-heading" className="text-xl font-semibold">
        Timeline
      </h2>
      <p className="text-sm text-slate-600">
        Everything done for this customer through the toolkit, newest first, with the waivers made and the hours logged.{' '}
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
    </section>
  );
}
