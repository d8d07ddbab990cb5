import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  customerReviewPath,
  TIMELINE_DAYS,
  TIMELINE_TOOL_LABELS,
  TIMELINE_TOOLS,
  type CustomerOverview,
  type TimelineTool,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { customerLabel, customers, useCustomers } from '../../../lib/customer';
import { userCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { useCustomerMeasurements } from '../api/measurements';
import { useCustomerOverview } from '../api/overview';
import { useCustomerTimeline, type TimelineFilters } from '../api/timeline';
import { CustomerHeader } from './customer-header';
import { MeasuredTrends } from './measured-trends';

// The table library comes with the timeline, after the page's first paint (its scripts stay lean).
const TimelineTable = lazy(() => import('./timeline-table').then((module) => ({ default: module.TimelineTable })));

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
  // Asked here too (the trends section asks the same, answered once), so it starts with the overview.
  const measurements = useCustomerMeasurements(organizationId, { days: filters.days, everyone: asked.everyone });
  // The sections under the header come with the header's and the trends' first answers, all at once: shown before,
  // each would push the ones under it down as its answer arrived (the page jumping under the reader's eyes).
  const firstAnswers = !overview.isPending && !measurements.isPending;
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
        <Link
          to={customerReviewPath(organizationId)}
          className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
        >
          Review pack
        </Link>
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
      {firstAnswers ? (
        <>
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
            Everything done for this customer through the toolkit, newest first, with the waivers made and the hours
            logged. {current?.organizationId === organizationId && `(${customerLabel(current)})`}
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
          <Suspense fallback={<p className="text-sm text-slate-700">Loading the timeline…</p>}>
            <TimelineTable
              name={name}
              entries={entries}
              empty={
                timeline.isPending
                  ? 'Loading…'
                  : timeline.isError
                    ? 'The work for this customer could not be read.'
                    : 'Nothing done for this customer in this period.'
              }
            />
          </Suspense>
        </>
      ) : (
        overview.isPending && <p className="text-sm text-slate-700">Loading this customer…</p>
      )}
    </section>
  );
}
