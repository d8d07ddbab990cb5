import {
  ENGAGEMENT_MESSAGES,
  healthFindingsSchema,
  PATHS,
  TIMELINE_LIMIT,
  userMay,
  WORK_TOOLS,
  type CustomerOverview,
  type CustomerOverviewQuery,
  type HealthCheck,
  type SessionUser,
  type TimelineTool,
} from '@ce/contract';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { CustomerOverviewRepository } from './customer-overview.repository.js';
import type { CustomerTimelineService } from './customer-timeline.service.js';
import { findingsInForce } from '../../core/findings-in-force.js';

const DAY_MS = 86_400_000;
/** The header's actions: the heaviest checks to act on. */
const TOP_ACTIONS = 3;

/** What the header reads of a health check's findings file. */
const headerFindingsSchema = healthFindingsSchema.pick({ score: true, checks: true, changes: true, generatedAt: true });
/** What it reads of a watch run's kept changes: the drift its backup found. */
const driftSchema = z.object({ drift: z.array(z.unknown()).catch([]) }).catch({ drift: [] });

type Waived = { checkId: string; itemKey: string | null };
type OpenCheck = { check: HealthCheck; items: HealthCheck['items'] };

/**
 * The checks that warn or fail and the items of each no waiver takes out, heaviest first: the open findings as every
 * list counts them (`findingsInForce`), by check. A check whose items are all waived (or waived whole) is not open; one
 * that found no item to name stays, as it warns or fails.
 */
export function openChecks(checks: readonly HealthCheck[], waivers: readonly Waived[]): OpenCheck[] {
  const open = new Set(findingsInForce(checks, waivers).open.map((finding) => `${finding.checkId}|${finding.itemKey}`));
  return checks
    .filter((check) => check.status === 'warn' || check.status === 'fail')
    .filter((check) => !waivers.some((waiver) => waiver.checkId === check.id && waiver.itemKey === null))
    .map((check) => ({
      check,
      items: check.items.filter((item) => open.has(`${check.id}|${item.type}:${item.id}`)),
    }))
    .filter(({ check, items }) => check.items.length === 0 || items.length > 0)
    .sort((a, b) => b.check.weight - a.check.weight || (a.check.status === 'fail' ? -1 : 1));
}

/** "Needs attention": by check, heaviest first; an item named by two checks or more is listed once, apart. */
export function attentionOf(open: readonly OpenCheck[]): CustomerOverview['attention'] {
  const keyOf = (item: HealthCheck['items'][number]) => `${item.type}:${item.id}`;
  const named = new Map<string, OpenCheck[]>();
  for (const entry of open)
    for (const item of entry.items) named.set(keyOf(item), [...(named.get(keyOf(item)) ?? []), entry]);
  const several = new Set([...named].filter(([, checks]) => checks.length > 1).map(([key]) => key));
  const people = [...several].map((itemKey) => {
    const checks = named.get(itemKey) ?? [];
    const item = checks[0]?.items.find((candidate) => keyOf(candidate) === itemKey);
    return {
      itemKey,
      name: item?.name ?? itemKey,
      detail: item?.detail ?? '',
      checks: checks.map(({ check }) => ({ checkId: check.id, check: check.title, status: check.status })),
    };
  });
  return {
    groups: open.map(({ check, items }) => ({
      checkId: check.id,
      check: check.title,
      status: check.status,
      weight: check.weight,
      items: items
        .filter((item) => !several.has(keyOf(item)))
        .map((item) => ({ itemKey: keyOf(item), name: item.name, detail: item.detail })),
    })),
    people,
  };
}

/**
 * A customer's page at a glance: its latest health check (score, grade, trend), the three checks to act on, what
 * needs attention, and the period's line: the timeline's entries by tool (the same read, so the counts agree), the
 * drift its watches found, the hours logged on its engagements and the waivers in force. Each part the caller may
 * read: the health check with `healthCheck`, the hours with `tools`, the waivers when tied to the customer.
 */
export class CustomerOverviewService {
  constructor(
    private readonly repository: CustomerOverviewRepository,
    private readonly timeline: CustomerTimelineService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async overview(user: SessionUser, organizationId: string, query: CustomerOverviewQuery): Promise<CustomerOverview> {
    const now = this.clock();
    const everyone = query.everyone && userMay(user, 'seeAllRuns');
    const whose = everyone ? null : user.id;
    const since = new Date(now.getTime() - query.days * DAY_MS);
    // The hours as the timeline's source reads them (the same rows its entries are).
    const asked = {
      caller: user,
      organizationId,
      userId: whose,
      ...(everyone && query.person ? { personEmail: query.person } : {}),
      since,
      limit: TIMELINE_LIMIT,
    };
    const [timeline, health, waivers, drift, engagements, tied, hourRows] = await Promise.all([
      this.timeline.timeline(user, organizationId, { ...query, tool: undefined }),
      userMay(user, 'healthCheck') ? this.repository.latestHealth(organizationId, whose) : undefined,
      this.repository.waiversInForce(organizationId, now),
      this.repository.driftSince(organizationId, since, whose),
      userMay(user, 'tools') ? this.repository.engagements(organizationId) : [],
      userMay(user, 'seeAllRuns') || this.repository.watchesOrganization(user.id, organizationId),
      userMay(user, 'tools') ? this.repository.hours(asked) : null,
    ]);
    const counts = new Map<TimelineTool, number>();
    for (const entry of timeline.entries) counts.set(entry.tool, (counts.get(entry.tool) ?? 0) + 1);
    const findings = health ? parseFindings(health.content) : null;
    const open = findings ? openChecks(findings.checks, waivers) : [];
    const hours = hourRows ? hourRows.reduce((sum, row) => sum + row.hours.hours, 0) : null;
    return {
      organizationId,
      organizationName: timeline.organizationName,
      health:
        health && findings
          ? {
              score: findings.score.value,
              grade: findings.score.grade,
              at: health.createdAt.toISOString(),
              findings: open.reduce((sum, entry) => sum + entry.items.length, 0),
              trend: findings.changes.trend,
              path: `${PATHS.reports}?report=${health.reportId}`,
              byWatch: health.watchRunId !== null,
            }
          : null,
      topActions: open.slice(0, TOP_ACTIONS).map(({ check, items }) => ({
        checkId: check.id,
        check: check.title,
        status: check.status,
        weight: check.weight,
        items: items.length,
        remediation: check.remediation,
      })),
      attention: attentionOf(open),
      period: {
        days: query.days,
        runs: WORK_TOOLS.flatMap((tool) => (counts.get(tool) ? [{ tool, count: counts.get(tool) ?? 0 }] : [])),
        byWatches: timeline.entries.filter((entry) => entry.watch).length,
        drift: drift.reduce((sum, row) => sum + driftSchema.parse(row.changes ?? {}).drift.length, 0),
        hours: hours === null ? null : Math.round(hours * 100) / 100,
        waivers: tied ? waivers.length : null,
      },
      engagements: engagements.map((row) => ({
        engagementId: row.engagementId,
        linkedBy: row.linkedBy,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }

  /** Links a time-tracker engagement to the customer, once; one linked to another customer is refused (409). */
  async link(user: SessionUser, organizationId: string, engagementId: string) {
    const linked = await this.repository.link(organizationId, engagementId, user.id);
    if (linked !== organizationId)
      throw new AppError(409, 'engagement_linked_elsewhere', ENGAGEMENT_MESSAGES.elsewhere(linked));
    return this.engagements(organizationId);
  }

  async unlink(organizationId: string, engagementId: string): Promise<void> {
    if (!(await this.repository.unlink(organizationId, engagementId)))
      throw new AppError(404, 'not_found', ENGAGEMENT_MESSAGES.notLinked);
  }

  async engagements(organizationId: string) {
    return {
      engagements: (await this.repository.engagements(organizationId)).map((row) => ({
        engagementId: row.engagementId,
        linkedBy: row.linkedBy,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }
}

function parseFindings(content: Buffer) {
  try {
    const parsed = headerFindingsSchema.safeParse(JSON.parse(content.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
