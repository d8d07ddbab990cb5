import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PATHS, TIMELINE_TOOL_LABELS, WAIVER_MESSAGES, type CustomerOverview } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/field';
import { useCustomers } from '../../../lib/customer';
import { useLinkEngagement } from '../api/overview';
import { dayMonth } from '../../../lib/dates';

/** A grade's colour: A and B green, C amber, D and F red (the text dark enough to read on its tint). */
export const GRADE_TONE: Record<string, string> = {
  A: 'bg-green-100 text-green-900 ring-green-600',
  B: 'bg-green-100 text-green-900 ring-green-600',
  C: 'bg-amber-100 text-amber-900 ring-amber-600',
  D: 'bg-red-100 text-red-900 ring-red-600',
  F: 'bg-red-100 text-red-900 ring-red-600',
};

const SEVERITY = { fail: 'text-red-800', warn: 'text-amber-800', pass: 'text-green-800', unknown: 'text-slate-700' };

/** What a caller not tied to the customer, or without the tools, is told is not theirs to see, and why. */
export const UNSEEN = {
  watches:
    'You cannot see what others’ watches found here (the changes at the customer, their health checks): only a watch’s owner or a Super User can. What is counted here is your own work.',
  hours: 'You cannot see the hours logged for this customer: your role does not include the tools.',
};

/** A tool's label after a count: "1 report", "3 bulk runs". */
const countedLabel = (tool: keyof typeof TIMELINE_TOOL_LABELS, count: number) => {
  const label = TIMELINE_TOOL_LABELS[tool].toLowerCase();
  return count === 1 ? label.replace(/s$/, '') : label;
};

/** The score over its health checks, for the eye (the points are said in its title). */
function Sparkline({ trend }: { trend: { at: string; score: number }[] }) {
  if (trend.length < 2) return null;
  const width = 96;
  const height = 24;
  const step = width / (trend.length - 1);
  const points = trend.map((point, index) => `${index * step},${height - (point.score / 100) * height}`).join(' ');
  return (
    <svg viewBox={`-2 -2 ${width + 4} ${height + 4}`} className="h-7 w-24" role="img" data-testid="sparkline">
      <title>{`Score ${trend.map((point) => point.score).join(', ')}, oldest first`}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" className="text-brand-700" />
    </svg>
  );
}

/** Links the time tracker's engagement to this customer, once (its hours then count here). */
function LinkEngagement({ organizationId }: { organizationId: string }) {
  const link = useLinkEngagement(organizationId);
  const [engagementId, setEngagementId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (engagementId.trim()) link.mutate(engagementId.trim(), { onSuccess: () => setEngagementId('') });
  };
  return (
    <form className="flex flex-wrap items-end gap-2" onSubmit={submit} aria-label="Link an engagement">
      <TextInput
        label="Engagement_ID"
        value={engagementId}
        onChange={(event) => setEngagementId(event.target.value)}
        error={link.error?.message}
      />
      <Button type="submit" size="sm" busy={link.isPending} busyLabel="Linking">
        Link
      </Button>
    </form>
  );
}

/**
 * The customer's page at a glance: the organization, its score in its grade's colour with a sparkline, the three
 * checks to act on, and the period's line (what we did, what changed at the customer, hours logged, waivers in
 * force), each part a link to where it comes from.
 */
export function CustomerHeader({
  organizationId,
  overview,
  periodLabel,
  timelineLink,
  mayLink,
}: {
  organizationId: string;
  overview: CustomerOverview | undefined;
  periodLabel: string;
  /** The timeline's address with a tool chosen. */
  timelineLink: (tool: string) => string;
  mayLink: boolean;
}) {
  const here = `${PATHS.customers}/${encodeURIComponent(organizationId)}`;
  const health = overview?.health ?? null;
  const period = overview?.period;
  const { current, recent } = useCustomers();
  // Tied to the customer by neither a watch of theirs nor being a Super User (the server then counts no waiver).
  const untied = period?.waivers === null;
  const holdsToken = [current, ...recent].some((customer) => customer?.organizationId === organizationId);
  const unseen = [
    ...(untied && !holdsToken ? [WAIVER_MESSAGES.cannotSee] : []),
    ...(untied ? [UNSEEN.watches] : []),
    ...(period && period.hours === null ? [UNSEEN.hours] : []),
  ];
  const parts: { key: string; node: React.ReactNode }[] = [];
  if (period) {
    const work = period.runs.reduce((sum, run) => sum + run.count, 0);
    parts.push({
      key: 'work',
      node:
        work === 0 ? (
          'nothing done by us'
        ) : (
          <>
            we did{' '}
            {period.runs.map((run, index) => (
              <span key={run.tool}>
                {index > 0 && ', '}
                <Link to={timelineLink(run.tool)} className="text-brand-800 underline" data-testid="period-run">
                  {run.count} {countedLabel(run.tool, run.count)}
                </Link>
              </span>
            ))}
            {period.byWatches > 0 && ` (${period.byWatches} by Account Watch)`}
          </>
        ),
    });
    // Only watches find the changes at the customer: one tied to none would read a zero that is not the customer's.
    if (!untied)
      parts.push({
        key: 'drift',
        node: (
          <Link to={timelineLink('changes')} className="text-brand-800 underline" data-testid="period-drift">
            {period.drift} change{period.drift === 1 ? '' : 's'} at the customer
          </Link>
        ),
      });
    if (period.hours !== null)
      parts.push({
        key: 'hours',
        node: (
          <Link to={timelineLink('hours')} className="text-brand-800 underline">
            {period.hours} h logged
          </Link>
        ),
      });
    if (period.waivers !== null)
      parts.push({
        key: 'waivers',
        node: (
          <Link to={`${here}#findings-heading`} className="text-brand-800 underline">
            {period.waivers} waiver{period.waivers === 1 ? '' : 's'} in force
          </Link>
        ),
      });
  }
  return (
    // Its room is kept while the overview loads: the page below does not jump when it arrives (layout shift).
    <div className="min-h-32 space-y-2" data-testid="customer-header" aria-busy={overview === undefined}>
      <div className="flex flex-wrap items-center gap-3">
        {health ? (
          <Link
            to={health.path}
            className={`inline-flex items-center gap-2 rounded-md px-2 py-1 ring-1 ${GRADE_TONE[health.grade] ?? GRADE_TONE.F}`}
            data-testid="header-score"
          >
            <span className="text-xl font-bold">{health.grade}</span>
            <span className="text-sm font-semibold">{health.score}/100</span>
            <span className="text-xs">
              {dayMonth(health.at)}, {health.findings} finding{health.findings === 1 ? '' : 's'}
            </span>
          </Link>
        ) : (
          overview && (
            <span className="text-sm text-slate-600">
              {untied ? 'No health check of yours yet.' : 'No health check yet.'}
            </span>
          )
        )}
        {health && <Sparkline trend={health.trend} />}
      </div>
      {period && (
        <p className="text-sm" data-testid="period-line">
          <span className="font-semibold">{periodLabel}:</span>{' '}
          {parts.map((part, index) => (
            <span key={part.key}>
              {index > 0 && ' · '}
              {part.node}
            </span>
          ))}
        </p>
      )}
      {unseen.length > 0 && (
        <ul className="space-y-0.5 text-sm text-slate-700" aria-label="What you cannot see here" data-testid="unseen">
          {unseen.map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      )}
      {overview && overview.topActions.length > 0 && (
        <ol className="list-decimal space-y-0.5 pl-5 text-sm" aria-label="Top actions" data-testid="top-actions">
          {overview.topActions.map((action) => (
            <li key={action.checkId}>
              <Link to={`${here}#attention-${action.checkId}`} className="font-medium text-brand-800 underline">
                {action.check}
              </Link>{' '}
              <span className={SEVERITY[action.status]}>
                ({action.status === 'fail' ? 'failing' : 'warning'}, {action.items} item{action.items === 1 ? '' : 's'},
                weight {action.weight})
              </span>
              {action.remediation && <span className="text-slate-600">: {action.remediation}</span>}
            </li>
          ))}
        </ol>
      )}
      {mayLink && overview && (
        <details className="text-sm">
          <summary className="cursor-pointer text-brand-800">
            Engagements{' '}
            {overview.engagements.length > 0
              ? `(${overview.engagements.map((engagement) => engagement.engagementId).join(', ')})`
              : '(none linked: hours logged count here once one is)'}
          </summary>
          <div className="mt-2">
            <LinkEngagement organizationId={organizationId} />
          </div>
        </details>
      )}
    </div>
  );
}
