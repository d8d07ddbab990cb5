import {
  REPORT_KINDS,
  REVIEW_MESSAGES,
  TIMELINE_LIMIT,
  can,
  WORK_TOOLS,
  healthFindingsSchema,
  measurementsSchema,
  reviewNarrativeSchema,
  userMay,
  type HealthFindings,
  type Measurements,
  type ReviewNarrative,
  type ReviewPackOptions,
  type ReviewPreview,
  type SessionUser,
  type TimelineTool,
} from '@ce/contract';
import type { PlatformSession } from '@ce/platform-client';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { SourcedEntry, TimelineQuery } from '../../core/timeline.js';
import { openChecks } from '../customer/customer-overview.service.js';
import type { ReviewPack } from './review-pack.js';
import { readOutages } from './review-platform.js';
import type { ReviewRepository, StoredScope } from './review.repository.js';
import { StoredSections } from './review-stored.js';
import { printableValue } from './review-text.js';

/**
 * The one builder of a review pack (decision 0038): the preview calls it without the platform, the report kind with
 * it, so a figure the preview shows is the pack's. Everything after the cut-off is left out, so the pack built again
 * from the same rows gives the same figures.
 */

const DAY_MS = 86_400_000;

/** What a pack reads of the product's own records. */
export interface ReviewSources {
  repository: ReviewRepository;
  /** The customer's timeline as its page reads it for `query.caller` (every module's work). */
  timeline(query: TimelineQuery): Promise<SourcedEntry[]>;
}

export interface ReviewRequest {
  organization: { id: string; name: string };
  /** Who asks: the pack keeps to what they may see (their watches, or everyone's for those who see all runs). */
  requester: SessionUser;
  options: ReviewPackOptions;
  now: Date;
}

/** The platform reads of a pack being built; none for the preview. */
export interface ReviewPlatform {
  session: PlatformSession;
  accountGroups: { aid: string }[];
  signal?: AbortSignal;
}

export interface ReviewWindow {
  from: Date;
  to: Date;
  cutOff: Date;
  /** The period's end or the cut-off, whichever comes first: nothing after it counts. */
  until: Date;
  label: string;
}

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The period's moments (`to` excluded), its cut-off (never later than now) and its label; refused in words. */
export function reviewWindow(options: Pick<ReviewPackOptions, 'period' | 'cutOff'>, now: Date): ReviewWindow {
  const from = new Date(`${options.period.from}T00:00:00Z`);
  const to = new Date(Date.parse(`${options.period.to}T00:00:00Z`) + DAY_MS);
  if (from > now) throw new AppError(400, 'review_period_future', REVIEW_MESSAGES.periodInFuture);
  const cutOff = new Date(Math.min(options.cutOff ? Date.parse(options.cutOff) : now.getTime(), now.getTime()));
  if (cutOff <= from) throw new AppError(400, 'review_cut_off_early', REVIEW_MESSAGES.cutOffBeforePeriod);
  const until = new Date(Math.min(to.getTime(), cutOff.getTime()));
  const { kind } = options.period;
  const label =
    kind === 'month'
      ? MONTH.format(from)
      : kind === 'quarter'
        ? `Q${Math.floor(from.getUTCMonth() / 3) + 1} ${from.getUTCFullYear()}`
        : `${DAY.format(from)} to ${DAY.format(new Date(to.getTime() - DAY_MS))}`;
  return { from, to, cutOff, until, label };
}

const EMPTY_NARRATIVE: ReviewNarrative = { goals: [], highlights: [], nextSteps: [] };

/** The narrative kept for the organization (an empty one before anyone saved one), and its row. */
export async function keptNarrative(repository: ReviewRepository, organizationId: string) {
  const row = await repository.narrative(organizationId);
  const parsed = row ? reviewNarrativeSchema.safeParse(row.narrative) : null;
  return { row, narrative: parsed?.success ? parsed.data : EMPTY_NARRATIVE };
}

/** Why the team's hours are left out: the requester's role lacks the time tracker, or the API token it came with. */
const hoursUnknown = (requester: SessionUser) => ({
  unknown: can(requester.role, 'tools') ? REVIEW_MESSAGES.hoursToken : REVIEW_MESSAGES.hoursRole,
});

/**
 * The capabilities of the personal API token a pack was requested with, kept in its stored options by the server
 * (never taken from the caller): the job reads the stored records as that token may, not as the whole role may.
 */
const requestedWithSchema = z.object({ requestedWith: z.array(z.string()).optional() });

/** A pack's checked options as they are stored: with the capabilities of the caller's API token, if one asked. */
export function withRequestedWith(options: ReviewPackOptions, caller: SessionUser): Record<string, unknown> {
  return caller.apiToken ? { ...options, requestedWith: [...caller.apiToken.capabilities] } : { ...options };
}

/** The job's requester (their role) as the request was made: with its API token's capabilities, if one asked. */
export function requesterAsAsked(requester: SessionUser, stored: unknown): SessionUser {
  const parsed = requestedWithSchema.safeParse(stored);
  const capabilities = parsed.success ? parsed.data.requestedWith : undefined;
  return capabilities ? { ...requester, apiToken: { id: 'pack', name: 'the pack request', capabilities } } : requester;
}

/** The reports' timeline names a report by its kind's label ("Review pack report"). */
const REVIEW_PACK_WHAT = `${REPORT_KINDS['review-pack'].label} report`;
const isReviewPack = (entry: SourcedEntry) => entry.tool === 'reports' && entry.what === REVIEW_PACK_WHAT;

const parsedFindings = (content: Buffer): HealthFindings | null => {
  try {
    const parsed = healthFindingsSchema.safeParse(JSON.parse(content.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/**
 * Builds the pack: its stored sections always, its platform sections when `platform` is given. Every string of it is
 * made printable here, once (`review-text.ts`), so the deck, its PDF, its JSON and the Webex message say the same.
 */
export async function buildReviewPack(
  sources: ReviewSources,
  request: ReviewRequest,
  platform: ReviewPlatform | null,
): Promise<{ pack: ReviewPack; proposedKeyTests: ReviewPreview['proposedKeyTests'] }> {
  const { requester, organization, options } = request;
  const window = reviewWindow(options, request.now);
  const scope: StoredScope = {
    organizationId: organization.id,
    from: window.from,
    until: window.until,
    userId: userMay(requester, 'seeAllRuns') ? null : requester.id,
  };
  const { repository } = sources;
  const [runRows, healthRows, waivers, hours, entries, narrative] = await Promise.all([
    repository.measuredRuns(scope),
    repository.healthChecks(scope),
    repository.waiversAt(organization.id, window.until),
    userMay(requester, 'tools') ? repository.hours(scope) : null,
    sources.timeline({
      caller: requester,
      organizationId: organization.id,
      userId: scope.userId,
      since: window.from,
      limit: TIMELINE_LIMIT,
    }),
    // Asked without one, the pack says the narrative kept for the customer when it is built, as the preview does.
    options.narrative ?? keptNarrative(repository, organization.id).then((kept) => kept.narrative),
  ]);
  const runs = runRows.flatMap((row): Measurements[] => {
    // A run kept under an older shape that no longer parses is left out, not counted as zeros.
    const parsed = measurementsSchema.safeParse(row.measurements);
    const to = parsed.success ? Date.parse(parsed.data.to) : Number.NaN;
    return parsed.success && to > window.from.getTime() && to <= window.until.getTime() ? [parsed.data] : [];
  });
  const health = healthRows.flatMap((row) => {
    const findings = parsedFindings(row.content);
    return findings ? [{ at: row.createdAt.toISOString(), findings }] : [];
  });
  const latest = health.at(-1)?.findings;
  const counts = new Map<TimelineTool, number>();
  for (const entry of entries) {
    const at = Date.parse(entry.createdAt);
    // A review pack is the review, not work done for the customer: neither this one nor an earlier one is counted.
    if (isReviewPack(entry)) continue;
    if (at >= window.from.getTime() && at <= window.until.getTime())
      counts.set(entry.tool, (counts.get(entry.tool) ?? 0) + 1);
  }
  const cutOff = window.cutOff.toISOString();
  const preparedBy = requester.name ?? requester.email;
  const stored = new StoredSections({
    organizationId: organization.id,
    from: window.from.toISOString(),
    until: window.until.toISOString(),
    cutOff,
    preparedBy,
    runs,
    keyTests: options.keyTests,
    health,
    openFindings: latest
      ? openChecks(latest.checks, waivers).map(({ check }) => ({ title: check.title, remediation: check.remediation }))
      : [],
    work: WORK_TOOLS.flatMap((tool) => (counts.get(tool) ? [{ tool, count: counts.get(tool) ?? 0 }] : [])),
    hours: hours ?? hoursUnknown(requester),
    narrative,
  });
  const at = (source: string) => ({ source, cutOff });
  const outages = platform
    ? await readOutages(
        platform.session,
        platform.accountGroups,
        { from: window.from.getTime(), until: window.until.getTime() },
        request.now.getTime(),
        platform.signal,
      )
    : { unknown: 'read from the platform when the pack is built' };
  const pack: ReviewPack = printableValue({
    customer: organization.name,
    periodLabel: window.label,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    cutOff,
    preparedBy,
    executiveSummary: {
      ...at('Account Watch runs, health checks and your narrative'),
      content: stored.executiveSummary(),
    },
    units: { ...at('Account Watch runs (platform usage)'), content: stored.units() },
    availability: { ...at('Account Watch runs (test results)'), content: stored.availability() },
    alerts: { ...at('Account Watch runs (alerts)'), content: stored.alerts() },
    outages: { ...at("The platform's Internet Insights and events"), content: outages },
    agents: { ...at('Account Watch runs (agents)'), content: stored.agents() },
    changes: { ...at("Account Watch runs (the platform's activity log)"), content: stored.changes() },
    health: { ...at('Health checks of the period'), content: stored.health() },
    teamWork: { ...at("The toolkit's timeline and time tracker"), content: stored.teamWork() },
    recommendations: { ...at('Your next steps and the open findings'), content: stored.recommendations() },
  } satisfies ReviewPack);
  return { pack, proposedKeyTests: printableValue(stored.proposedKeyTests()) };
}
