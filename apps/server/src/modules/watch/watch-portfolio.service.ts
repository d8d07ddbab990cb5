import {
  CUSTOMER_REASONS,
  userMay,
  WAIVER_MESSAGES,
  type CustomerState,
  type CreateWaiver,
  type LastPack,
  type WaiverListRequest,
  type PortfolioEntry,
  type SessionUser,
  type Waiver,
  waiverSchema,
  watchRunsSchema,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import type { CustomerService } from '../customer/customer.service.js';
import type { WaiverRow, WatchPortfolioRepository } from './watch-portfolio.repository.js';
import { keptChecksSchema } from './watch-changes.js';
import { findingsInForce } from './watch-findings.js';
import { lastPackOf, mayOpenPacks, nextPackDue, PACK_KIND } from './watch-packs.js';
import { CAPABILITIES_OF } from './watch.service.js';

const DAY_MS = 86_400_000;

/** A check seen regressing in this many customers in one ISO week is marked as common to them. */
const COMMON_AT = 3;
/** "My customers" shows the trend over this many runs. */
const TREND_RUNS = 4;

/** Monday 00:00 UTC of `at`'s ISO week. */
export function isoWeekStart(at: Date): Date {
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day));
}

/** A score that fell this much (or more) since the week before makes the customer red. */
const RED_DROP = 10;
/** A latest score below this makes the customer red whatever its trend (grade F). */
const RED_SCORE = 60;

/** The facts My customers colours a row by. */
export interface StateFacts {
  score: number | null;
  /** The score's change, and since when in words ("since last week", "since 3 May"). */
  change: { by: number; since: string } | null;
  openFindings: number | null;
  failingFindings: number;
  pausedWatches: number;
  drift: number | null;
  commonRegressions: readonly string[];
  ran: boolean;
}

/**
 * A customer's state and its reasons in words, the weightiest first: red when the score fell by RED_DROP or more,
 * is below RED_SCORE, or a failing finding is open while a watch is paused (nobody is told); amber when the score
 * fell, a finding is open, a watch is paused or its backups found drift; green else. Pure.
 */
export function customerState(facts: StateFacts): { state: CustomerState; reasons: string[] } {
  const reasons: { words: string; red: boolean }[] = [];
  if (facts.change && facts.change.by < 0)
    reasons.push({
      words: CUSTOMER_REASONS.scoreChange(facts.change.by, facts.change.since),
      red: facts.change.by <= -RED_DROP,
    });
  if (facts.score !== null && facts.score < RED_SCORE)
    reasons.push({ words: `score ${facts.score} (grade F)`, red: true });
  if (facts.openFindings)
    reasons.push({
      words: CUSTOMER_REASONS.openFindings(facts.openFindings, facts.failingFindings),
      red: false,
    });
  if (facts.pausedWatches > 0)
    reasons.push({ words: CUSTOMER_REASONS.paused(facts.pausedWatches), red: facts.failingFindings > 0 });
  if (facts.drift) reasons.push({ words: CUSTOMER_REASONS.drift(facts.drift), red: false });
  if (facts.commonRegressions.length > 0)
    reasons.push({ words: CUSTOMER_REASONS.common(facts.commonRegressions), red: false });
  const sorted = [...reasons.filter((reason) => reason.red), ...reasons.filter((reason) => !reason.red)];
  if (sorted.length === 0)
    return { state: 'green', reasons: [facts.ran ? CUSTOMER_REASONS.fine : CUSTOMER_REASONS.noRunYet] };
  return {
    state: sorted.some((reason) => reason.red) ? 'red' : 'amber',
    reasons: sorted.map((reason) => reason.words),
  };
}

/** The score's change since the latest scored run a week or more before the latest (else the oldest shown). */
function scoreChange(scored: readonly { score: number | null; finishedAt: Date | null }[]) {
  const [latest] = scored;
  if (!latest?.finishedAt || latest.score === null || scored.length < 2) return null;
  const weekBefore = latest.finishedAt.getTime() - 6 * DAY_MS;
  const reference =
    scored.find((run) => run.finishedAt && run.finishedAt.getTime() <= weekBefore) ?? scored.at(-1) ?? latest;
  if (reference === latest || reference.score === null || !reference.finishedAt) return null;
  const days = (latest.finishedAt.getTime() - reference.finishedAt.getTime()) / DAY_MS;
  return {
    by: latest.score - reference.score,
    since:
      days >= 6 && days < 8
        ? 'since last week'
        : `since ${reference.finishedAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })}`,
  };
}

function toApi(row: WaiverRow): Waiver {
  return {
    id: row.id,
    organizationId: row.organizationId,
    checkId: waiverSchema.shape.checkId.parse(row.checkId),
    itemKey: row.itemKey,
    itemName: row.itemName,
    reason: row.reason,
    expiresAt: row.expiresAt.toISOString(),
    createdBy: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface PortfolioDependencies {
  repository: WatchPortfolioRepository;
  audit: AuditLog;
  /** Asks the platform which organization a customer's token reaches (used once, never stored). */
  customer: Pick<CustomerService, 'scope'>;
  /** Waivers in force per organization at most (WAIVERS_PER_ORGANIZATION_MAX). */
  waiversMax: number;
  clock: () => Date;
}

/** Waivers of findings per customer, and "My customers": every watched organization at a glance. */
export class WatchPortfolioService {
  constructor(private readonly deps: PortfolioDependencies) {}

  /**
   * Whether the caller is tied to the organization, as seeing, making and ending its waivers needs: a Super User, the
   * owner of a watch over it, or a caller whose request carries a token the platform names that organization for.
   * Anyone else is refused in words (403).
   */
  private async mustBeTied(user: SessionUser, organizationId: string, token: string | undefined): Promise<void> {
    if (userMay(user, 'seeAllRuns')) return;
    if (await this.deps.repository.watchesOrganization(user.id, organizationId)) return;
    if (token === undefined) throw new AppError(403, 'not_tied_to_organization', WAIVER_MESSAGES.notTied);
    try {
      await this.deps.customer.scope(token, organizationId, []);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unknown_organization')
        throw new AppError(403, 'token_of_another_organization', WAIVER_MESSAGES.tokenElsewhere);
      throw error;
    }
  }

  /** A customer's waivers in force, for a caller tied to that organization. */
  async waivers(user: SessionUser, { organizationId, token }: WaiverListRequest): Promise<Waiver[]> {
    await this.mustBeTied(user, organizationId, token);
    return (await this.deps.repository.waivers(organizationId, this.deps.clock())).map(toApi);
  }

  /**
   * Waives a finding (or a whole check) for one organization, until it expires, for a caller tied to it; one waiver
   * per finding, at most `waiversMax` in force per organization (counted in SQL, not read); audited.
   */
  async waive(user: SessionUser, { token, ...input }: CreateWaiver): Promise<Waiver> {
    await this.mustBeTied(user, input.organizationId, token);
    const now = this.deps.clock();
    const inserted = await this.deps.repository.insertWaiverWithin(
      {
        organizationId: input.organizationId,
        checkId: input.checkId,
        itemKey: input.itemKey,
        itemName: await this.nameOf(input.organizationId, input.checkId, input.itemKey),
        reason: input.reason,
        expiresAt: new Date(now.getTime() + input.days * DAY_MS),
        createdBy: user.id,
        createdAt: now,
      },
      this.deps.waiversMax,
    );
    if ('refused' in inserted)
      throw inserted.refused === 'already_waived'
        ? new AppError(409, 'already_waived', WAIVER_MESSAGES.alreadyWaived)
        : new AppError(409, 'too_many_waivers', WAIVER_MESSAGES.tooMany(this.deps.waiversMax));
    const row = inserted.created;
    await this.deps.audit.record(user, 'watch.waived', input.organizationId, {
      waiverId: row.id,
      checkId: input.checkId,
      itemKey: input.itemKey,
      days: input.days,
    });
    return toApi({ ...row, createdByEmail: user.email });
  }

  /**
   * A waived item's name as the latest health check of a watch over the organization names it, never the caller's
   * words: the owner told of someone else's waiver must see which finding it took out. An item no watch found (yet)
   * is named by its key.
   */
  private async nameOf(organizationId: string, checkId: string, itemKey: string | null): Promise<string | null> {
    if (itemKey === null) return null;
    const { repository } = this.deps;
    const kept = keptChecksSchema.safeParse(
      (await repository.latestFindings(await repository.watchIdsOf(organizationId))).get(organizationId),
    );
    const found = kept.success
      ? kept.data.find((check) => check.id === checkId)?.items.find((item) => `${item.type}:${item.id}` === itemKey)
      : undefined;
    return found?.name ?? itemKey;
  }

  /**
   * Ends a waiver now (the finding counts again from the next run): its author, or a caller tied to its
   * organization (the owner of a watch over it, one with its token, a Super User); audited.
   */
  async unwaive(user: SessionUser, id: string, token?: string): Promise<void> {
    const waiver = await this.deps.repository.findWaiver(id);
    if (!waiver) throw new AppError(404, 'not_found', WAIVER_MESSAGES.notFound);
    if (waiver.createdBy !== user.id) await this.mustBeTied(user, waiver.organizationId, token);
    const deleted = await this.deps.repository.deleteWaiver(id);
    if (!deleted) throw new AppError(404, 'not_found', WAIVER_MESSAGES.notFound);
    await this.deps.audit.record(user, 'watch.unwaived', deleted.organizationId, {
      waiverId: id,
      checkId: deleted.checkId,
    });
  }

  /**
   * Every organization the user watches (everyone's for a Super User who asks): the latest score, the trend over the
   * last four runs, the last backup and the drift it found, open and waived findings, the next run; those in decline
   * first. A check that regressed (from passing) this ISO week in three or more watched customers is marked common.
   */
  async portfolio(user: SessionUser, everyone: boolean): Promise<PortfolioEntry[]> {
    return (await this.book(user, everyone)).entries;
  }

  /** My customers' entries and the ids of the watches they come from (what the fleet summary reads further). */
  async book(user: SessionUser, everyone: boolean): Promise<{ entries: PortfolioEntry[]; watchIds: string[] }> {
    const { repository } = this.deps;
    const now = this.deps.clock();
    // A personal API token sees the watches of the capabilities it carries, as the watch list does.
    const watched = (await repository.watches(everyone && userMay(user, 'seeAllRuns') ? undefined : user.id)).filter(
      (watch) => CAPABILITIES_OF[watchRunsSchema.parse(watch.runs)].every((capability) => userMay(user, capability)),
    );
    const organizations = new Map<
      string,
      { name: string; watches: number; owners: Set<string>; paused: number; nextRunAt: Date | null }
    >();
    for (const watch of watched) {
      const entry = organizations.get(watch.organizationId) ?? {
        name: watch.organizationName,
        watches: 0,
        owners: new Set<string>(),
        paused: 0,
        nextRunAt: null,
      };
      entry.watches += 1;
      entry.owners.add(watch.userId);
      if (watch.status !== 'active') entry.paused += 1;
      if (watch.nextRunAt && (!entry.nextRunAt || watch.nextRunAt < entry.nextRunAt)) entry.nextRunAt = watch.nextRunAt;
      organizations.set(watch.organizationId, entry);
    }
    const ids = [...organizations.keys()];
    const watchIds = watched.map((watch) => watch.id);
    const [runs, latestFindings, waivers, common, emails, packs] = await Promise.all([
      repository.latestRuns(watchIds),
      repository.latestFindings(watchIds),
      repository.waiversOf(ids, now),
      this.commonRegressions(now),
      repository.emailsOf([...new Set(watched.map((watch) => watch.userId))]),
      this.packsOf(user, ids),
    ]);
    const entries = [...organizations].map(([organizationId, organization]): PortfolioEntry => {
      const mine = runs.get(organizationId) ?? [];
      const scored = mine.filter((run) => run.score !== null);
      const trend = scored
        .slice(0, TREND_RUNS)
        .map((run) => run.score ?? 0)
        .reverse();
      const backedUp = mine.find((run) => run.drift !== null);
      const latest = scored[0];
      const first = trend[0];
      const last = trend.at(-1);
      // Open and waived as the customer page and the watch's findings count them: one function.
      const kept = keptChecksSchema.safeParse(latestFindings.get(organizationId));
      const counted = findingsInForce(kept.success ? kept.data : null, waivers.get(organizationId) ?? []);
      const openFindings = kept.success && latestFindings.has(organizationId) ? counted.open.length : null;
      const driftSinceBackup = backedUp?.drift ?? null;
      const commonRegressions = common.get(organizationId) ?? [];
      const judged = customerState({
        score: latest?.score ?? null,
        change: scoreChange(scored),
        openFindings,
        failingFindings: counted.open.filter((finding) => finding.status === 'fail').length,
        pausedWatches: organization.paused,
        drift: driftSinceBackup,
        commonRegressions,
        ran: mine.length > 0,
      });
      const lastPack = packs.get(organizationId) ?? null;
      return {
        organizationId,
        organizationName: organization.name,
        watches: organization.watches,
        owners: [...organization.owners].map((id) => emails.get(id) ?? id).sort(),
        pausedWatches: organization.paused,
        score: latest?.score ?? null,
        trend,
        change: first !== undefined && last !== undefined && trend.length > 1 ? last - first : null,
        lastRunAt: mine[0]?.finishedAt?.toISOString() ?? null,
        lastBackupAt: backedUp?.finishedAt?.toISOString() ?? null,
        driftSinceBackup,
        openFindings,
        waivedFindings: counted.waived,
        nextRunAt: organization.nextRunAt?.toISOString() ?? null,
        commonRegressions,
        ...judged,
        lastPack,
        nextPackDue: lastPack ? nextPackDue(lastPack) : null,
      };
    });
    // Worst first: red, amber, green; within each the largest drop first, then those without a trend yet, by name.
    const rank: Record<CustomerState, number> = { red: 0, amber: 1, green: 2 };
    entries.sort(
      (a, b) =>
        rank[a.state] - rank[b.state] ||
        (a.change ?? Number.POSITIVE_INFINITY) - (b.change ?? Number.POSITIVE_INFINITY) ||
        a.organizationName.localeCompare(b.organizationName),
    );
    return { entries, watchIds };
  }

  /**
   * Each organization's latest review pack the caller may open in My Reports: their own, or anyone's for those who
   * see everyone's runs; none for a personal API token that does not carry the packs' capability.
   */
  private async packsOf(user: SessionUser, organizationIds: string[]): Promise<Map<string, LastPack>> {
    if (!mayOpenPacks(user)) return new Map();
    const rows = await this.deps.repository.latestPacks(
      PACK_KIND,
      organizationIds,
      userMay(user, 'seeAllRuns') ? undefined : user.id,
    );
    const packs = new Map<string, LastPack>();
    for (const [organizationId, row] of rows) {
      const pack = lastPackOf(row);
      if (pack) packs.set(organizationId, pack);
    }
    return packs;
  }

  /** Per organization, the checks that regressed this ISO week in at least COMMON_AT watched customers. */
  private async commonRegressions(now: Date): Promise<Map<string, string[]>> {
    const byCheck = new Map<string, Set<string>>();
    for (const { organizationId, title } of await this.deps.repository.regressionsSince(isoWeekStart(now)))
      byCheck.set(title, (byCheck.get(title) ?? new Set()).add(organizationId));
    const common = new Map<string, string[]>();
    for (const [title, organizations] of byCheck)
      if (organizations.size >= COMMON_AT)
        for (const organizationId of organizations)
          common.set(organizationId, [...(common.get(organizationId) ?? []), title]);
    return common;
  }
}
