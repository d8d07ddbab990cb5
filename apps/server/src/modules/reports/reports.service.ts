import {
  can,
  REPORT_KINDS,
  type CreateReportInput,
  type ReportAccountGroup,
  type ReportKind,
  type ReportRequest,
  type SessionUser,
} from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../platform/errors.js';
import { LEASE_MS, whileLeased } from '../../platform/lease.js';
import type { JobQueue } from '../../platform/queue.js';
import type { SealedTokens } from '../../platform/sealed-tokens.js';
import { WebexError, type WebexClient } from '../../platform/webex-client.js';
import type { UsageService } from '../usage/usage.service.js';
import { alertsConfigGenerator } from './alerts-config.generator.js';
import { maintenanceWindowGenerator } from './maintenance-window.generator.js';
import type { ReportGenerator } from './report-generator.js';
import type { ArtifactSummary, ReportRow, ReportsRepository } from './reports.repository.js';

/** One queue, and so one worker, per report kind: a slow kind never holds up another. */
export const reportQueue = (kind: ReportKind) => `reports.generate.${kind}`;
export const REPORT_RECOVERY_QUEUE = 'reports.recover';
export const INVALID_TOKEN_MESSAGE = 'Invalid OAuth token. Please check your token and try again.';
/** A report that meets platform faults is taken up again this many times in all, resuming its reads. */
export const REPORT_MAX_ATTEMPTS = 3;
const RETRY_AFTER_SECONDS = 15;
/** A queued report whose job is gone is sent again once it has waited this long... */
const LOST_JOB_GRACE_MS = 2 * 60_000;
/** ...and given up, its token erased, once it has waited this long. */
export const REPORT_MAX_WAIT_MS = 24 * 60 * 60_000;
const JOB_GONE_STATES = new Set(['completed', 'cancelled', 'failed']);

/** The generators that exist; a kind is accepted only when it has one (REPORT_KINDS.available says the same). */
const GENERATORS: Partial<Record<ReportKind, ReportGenerator>> = {
  'alerts-config': alertsConfigGenerator,
  'maintenance-window': maintenanceWindowGenerator,
};

export function hasGenerator(kind: ReportKind): boolean {
  return GENERATORS[kind] !== undefined;
}

/** The kinds that have a generator, each of which gets its own worker. */
export const GENERATED_KINDS = (Object.keys(GENERATORS) as ReportKind[]).filter(hasGenerator);

function toApi(row: ReportRow & { requestedBy: string }, artifacts: ArtifactSummary[]): ReportRequest {
  return {
    id: row.id,
    kind: row.kind as ReportKind,
    requestedBy: row.requestedBy,
    organizationName: row.organizationName,
    accountGroups: row.accountGroups,
    options: row.options,
    status: row.status as ReportRequest['status'],
    progress: { done: row.progressDone, total: row.progressTotal },
    error: row.error,
    delivery: { status: row.deliveryStatus as ReportRequest['delivery']['status'], error: row.deliveryError },
    artifacts: artifacts
      .filter((artifact) => artifact.reportId === row.id)
      .map(({ reportId: _reportId, ...artifact }) => artifact),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Plain words for a platform failure during a report. */
function failureMessage(error: unknown): string {
  if (error instanceof PlatformError) return error.status === 401 ? INVALID_TOKEN_MESSAGE : error.message;
  return 'The report could not be produced because of an internal error.';
}

/** A failure another attempt may get past: the platform answered 5xx, timed out or could not be reached. */
function isTransient(error: unknown): boolean {
  return error instanceof PlatformError && (error.status <= 0 || error.status >= 500);
}

function platformRefusal(error: unknown): unknown {
  if (error instanceof PlatformError && error.status === 401)
    return new AppError(401, 'invalid_platform_token', INVALID_TOKEN_MESSAGE);
  if (error instanceof PlatformError) return new AppError(502, 'platform_error', error.message);
  return error;
}

export interface ReportsDependencies {
  repository: ReportsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  webex: WebexClient | null;
  usage: UsageService;
  logger: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/** The report pipeline: request, queue, generate, store, deliver, and erase the token. */
export class ReportsService {
  constructor(private readonly deps: ReportsDependencies) {}

  /** The account groups a pasted token can see (wizard step 1). */
  async accountGroups(token: string): Promise<ReportAccountGroup[]> {
    try {
      const groups = await this.deps.platform.as({ token }).accountGroups.list();
      return groups.map((group) => ({
        aid: group.aid,
        accountGroupName: group.accountGroupName,
        organizationName: group.organizationName ?? 'N/A',
        organizationId: group.orgId ?? group.organizationName ?? 'unknown',
      }));
    } catch (error) {
      throw platformRefusal(error);
    }
  }

  /**
   * The organization and account groups of a request as the platform names them: the browser says
   * which (ids), the token's own account groups say what they are called. A group the token cannot
   * see is refused.
   */
  private async scope(input: CreateReportInput) {
    const visible = (await this.accountGroups(input.token)).filter(
      (group) => group.organizationId === input.organization.id,
    );
    const organizationName = visible[0]?.organizationName;
    if (organizationName === undefined)
      throw new AppError(400, 'unknown_organization', 'This token does not belong to the selected organization.');
    const byAid = new Map(visible.map((group) => [group.aid, group]));
    const unknown = input.accountGroups.filter((group) => !byAid.has(group.aid));
    if (unknown.length > 0)
      throw new AppError(
        400,
        'unknown_account_group',
        `This token cannot see the account group${unknown.length === 1 ? '' : 's'} ${unknown.map((group) => group.aid).join(', ')}.`,
      );
    return {
      organization: { id: input.organization.id, name: organizationName },
      accountGroups: input.accountGroups.map(({ aid }) => ({
        aid,
        accountGroupName: byAid.get(aid)?.accountGroupName ?? aid,
      })),
    };
  }

  async create(user: SessionUser, input: CreateReportInput): Promise<ReportRequest> {
    const kind = REPORT_KINDS[input.kind];
    if (!can(user.role, kind.capability) || (input.kind === 'ahc-ie' && user.role !== 'Super User')) {
      throw new AppError(403, 'forbidden', `Your role cannot request the ${kind.label}.`);
    }
    if (!hasGenerator(input.kind))
      throw new AppError(400, 'report_unavailable', `The ${kind.label} is not available yet.`);
    if (kind.needsAccounts && input.accountGroups.length === 0) {
      throw new AppError(400, 'no_account_groups', 'Please select at least one account group', [
        { path: 'accountGroups', message: 'Please select at least one account group' },
      ]);
    }
    const { organization, accountGroups } = await this.scope(input);
    const row = await this.deps.repository.insert(
      {
        userId: user.id,
        kind: input.kind,
        organizationId: organization.id,
        organizationName: organization.name,
        accountGroups,
        options: input.options,
        deliveryStatus: this.deps.webex ? 'pending' : 'skipped',
      },
      (tx) => this.deps.tokens.seal(input.token, tx),
    );
    try {
      await this.enqueue(row);
    } catch (error) {
      await this.giveUp(row, 'The report could not be queued. Run it again.');
      throw error;
    }
    await this.deps.usage.record({ tool: kind.tool, userId: user.id });
    return this.get(user, row.id);
  }

  private async enqueue(row: Pick<ReportRow, 'id' | 'kind'>, delaySeconds = 0): Promise<void> {
    const jobId = await this.deps.queue.send(
      reportQueue(row.kind as ReportKind),
      { reportId: row.id },
      { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 * 60, ...(delaySeconds ? { startAfter: delaySeconds } : {}) },
    );
    await this.deps.repository.update(row.id, { jobId });
  }

  /** Ends a report that can no longer run: failed with `reason`, its token and reads erased. */
  private async giveUp(row: Pick<ReportRow, 'id' | 'tokenId'>, reason: string): Promise<void> {
    await this.deps.repository.update(row.id, {
      status: 'failed',
      finishedAt: new Date(),
      error: reason,
      deliveryStatus: 'skipped',
      leaseUntil: null,
    });
    await this.deps.tokens.erase(row.tokenId);
    await this.deps.repository.forgetReads(row.id);
  }

  /** Why a report can no longer run, or null when it can. */
  private async unrunnable(row: ReportRow, now: Date): Promise<string | null> {
    if (!hasGenerator(row.kind as ReportKind)) return 'This report kind is no longer available.';
    if (now.getTime() - row.createdAt.getTime() > REPORT_MAX_WAIT_MS)
      return 'The report waited too long for a worker. Run it again.';
    if ((await this.deps.tokens.open(row.tokenId)) === null)
      return 'The token is no longer available: run the report again.';
    return null;
  }

  /**
   * Finds reports that lost their worker or their queue job and sends them back to the queue, or ends
   * them when they can no longer run. `all`: every running report is an orphan (the embedded database
   * belongs to this one process, so nobody else can be working on them).
   */
  async recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    const { repository, queue } = this.deps;
    const candidates = await repository.orphans(now, all);
    for (const row of await repository.waiting(new Date(now.getTime() - LOST_JOB_GRACE_MS))) {
      const state = row.jobId ? await queue.jobState(reportQueue(row.kind as ReportKind), row.jobId) : null;
      if (state === null || JOB_GONE_STATES.has(state)) candidates.push(row);
    }
    let requeued = 0;
    let failed = 0;
    for (const row of candidates) {
      const reason = await this.unrunnable(row, now);
      if (reason) {
        await this.giveUp(row, reason);
        failed += 1;
        continue;
      }
      if (row.status === 'running') await repository.update(row.id, { status: 'queued', leaseUntil: null });
      await this.enqueue(row);
      requeued += 1;
    }
    if (requeued || failed)
      this.deps.logger.info({ requeued, failed }, 'reports without a worker sent back to the queue or ended');
    return { requeued, failed };
  }

  async list(user: SessionUser, scope: 'mine' | 'all'): Promise<ReportRequest[]> {
    const everyone = scope === 'all' && user.role === 'Super User';
    const rows = await this.deps.repository.list({ userId: everyone ? undefined : user.id, limit: 200 });
    const artifacts = await this.deps.repository.artifactsOf(rows.map((row) => row.id));
    return rows.map((row) => toApi(row, artifacts));
  }

  private async visible(user: SessionUser, id: string): Promise<ReportRow> {
    const row = await this.deps.repository.find(id);
    if (!row || (row.userId !== user.id && user.role !== 'Super User'))
      throw new AppError(404, 'report_not_found', 'No such report');
    return row;
  }

  async get(user: SessionUser, id: string): Promise<ReportRequest> {
    const row = await this.visible(user, id);
    const artifacts = await this.deps.repository.artifactsOf([row.id]);
    return toApi({ ...row, requestedBy: await this.deps.repository.requesterEmail(row.userId) }, artifacts);
  }

  async artifact(user: SessionUser, id: string, artifactId: string) {
    await this.visible(user, id);
    const artifact = await this.deps.repository.artifact(id, artifactId);
    if (!artifact) throw new AppError(404, 'artifact_not_found', 'No such file');
    return artifact;
  }

  /** Runs a report again with the same parameters and a freshly pasted token. */
  async rerun(user: SessionUser, id: string, token: string): Promise<ReportRequest> {
    const row = await this.visible(user, id);
    return this.create(user, {
      kind: row.kind as ReportKind,
      token,
      organization: { id: row.organizationId, name: row.organizationName },
      accountGroups: row.accountGroups,
      options: row.options,
    });
  }

  /**
   * The job: generate, store, deliver. A platform fault sends the report back to the queue a few times,
   * keeping its token and what it already read; otherwise the token and the reads are erased when the
   * job ends, whatever happened.
   */
  async run(reportId: string): Promise<void> {
    const { repository } = this.deps;
    const report = await repository.claim(reportId, new Date(), LEASE_MS);
    if (!report) return;
    let finished = true;
    try {
      await whileLeased(
        (until) => repository.renewLease(reportId, until),
        () => this.produce(report),
      );
    } catch (error) {
      if (isTransient(error) && report.attempts < REPORT_MAX_ATTEMPTS) {
        finished = false;
        await repository.update(reportId, { status: 'queued', leaseUntil: null });
        await this.enqueue(report, RETRY_AFTER_SECONDS);
        this.deps.logger.info(
          { reportId, attempt: report.attempts, status: (error as PlatformError).status },
          'report paused by a platform fault; it resumes from what it read',
        );
        return;
      }
      if (!(error instanceof PlatformError || error instanceof AppError))
        this.deps.logger.error({ err: error, reportId }, 'report failed');
      await repository.update(reportId, {
        status: 'failed',
        finishedAt: new Date(),
        error: error instanceof AppError ? error.message : failureMessage(error),
        deliveryStatus: 'skipped',
      });
    } finally {
      if (finished) {
        await this.deps.tokens.erase(report.tokenId);
        await repository.forgetReads(reportId);
        await repository.update(reportId, { leaseUntil: null });
      }
    }
  }

  /** Generates, stores and delivers one claimed report. */
  private async produce(report: ReportRow): Promise<void> {
    const { repository } = this.deps;
    const reportId = report.id;
    const generator = GENERATORS[report.kind as ReportKind];
    if (!generator) throw new AppError(400, 'report_unavailable', 'This report has no generator');
    const token = await this.deps.tokens.open(report.tokenId);
    if (token === null)
      throw new AppError(400, 'token_gone', 'The token is no longer available: run the report again.');
    const requestedBy = await repository.requesterEmail(report.userId);
    const generated = await generator({
      platform: this.deps.platform.as({
        token,
        organizationId: report.organizationId,
        journal: repository.journal(reportId),
      }),
      organization: { id: report.organizationId, name: report.organizationName },
      accountGroups: report.accountGroups,
      options: report.options,
      requestedBy,
      now: new Date(),
      progress: (done, total) => repository.update(reportId, { progressDone: done, progressTotal: total }),
    });
    await repository.replaceArtifacts(reportId, generated.artifacts);
    // Files first (downloadable even if delivery fails), then delivery, then done: done means finished.
    await this.deliver(report, requestedBy, generated);
    await repository.update(reportId, { status: 'done', finishedAt: new Date(), error: null });
  }

  /** One message with the summary, then one message per file (Webex takes one file a message). */
  private async deliver(report: ReportRow, to: string, generated: Awaited<ReturnType<ReportGenerator>>): Promise<void> {
    const { webex } = this.deps;
    const fresh = await this.deps.repository.find(report.id);
    if (!webex || fresh?.deliveryStatus === 'delivered') return;
    try {
      const [first, ...rest] = generated.artifacts.filter((artifact) => !artifact.contentType.startsWith('text/html'));
      await webex.send(to, generated.summaryMarkdown, first);
      for (const artifact of rest) await webex.send(to, `File: ${artifact.filename}`, artifact);
      await this.deps.repository.update(report.id, { deliveryStatus: 'delivered', deliveryError: null });
    } catch (error) {
      // A failed delivery never loses the report: it stays downloadable and says why it was not sent.
      await this.deps.repository.update(report.id, {
        deliveryStatus: 'failed',
        deliveryError: error instanceof WebexError ? error.message : 'Webex delivery failed',
      });
    }
  }

  /** Deletes finished reports (and their files) created before `before`. */
  pruneFinished(before: Date): Promise<number> {
    return this.deps.repository.deleteFinishedBefore(before);
  }
}
