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
import type { TokenVault } from '../../platform/token-vault.js';
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

export interface ReportsDependencies {
  repository: ReportsRepository;
  queue: JobQueue;
  vault: TokenVault;
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
      if (error instanceof PlatformError && error.status === 401)
        throw new AppError(401, 'invalid_platform_token', INVALID_TOKEN_MESSAGE);
      if (error instanceof PlatformError) throw new AppError(502, 'platform_error', error.message);
      throw error;
    }
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
    const row = await this.deps.repository.insert({
      userId: user.id,
      kind: input.kind,
      organizationId: input.organization.id,
      organizationName: input.organization.name,
      accountGroups: input.accountGroups,
      options: input.options,
      tokenCiphertext: this.deps.vault.seal(input.token),
      deliveryStatus: this.deps.webex ? 'pending' : 'skipped',
    });
    await this.enqueue(row.id, input.kind);
    await this.deps.usage.record({ tool: kind.tool, userId: user.id });
    return this.get(user, row.id);
  }

  private async enqueue(reportId: string, kind: ReportKind): Promise<void> {
    await this.deps.queue.send(
      reportQueue(kind),
      { reportId },
      { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 * 60 },
    );
  }

  /**
   * Sends the reports of dead workers back to the queue. `all`: every running report is an orphan
   * (the embedded database belongs to this one process, so nobody else can be working on them).
   */
  async recoverOrphans(all: boolean): Promise<number> {
    const orphans = await this.deps.repository.orphans(new Date(), all);
    for (const { id, kind } of orphans) {
      if (all) await this.deps.repository.update(id, { leaseUntil: null });
      await this.enqueue(id, kind as ReportKind);
    }
    if (orphans.length)
      this.deps.logger.info({ count: orphans.length }, 'reports of a stopped worker sent back to the queue');
    return orphans.length;
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

  /** The job: generate, store, deliver; the token is erased at the end whatever happened. */
  async run(reportId: string): Promise<void> {
    const { repository } = this.deps;
    const report = await repository.claim(reportId, new Date(), LEASE_MS);
    if (!report) return;
    try {
      await whileLeased(
        (until) => repository.renewLease(reportId, until),
        () => this.produce(report),
      );
    } catch (error) {
      if (!(error instanceof PlatformError || error instanceof AppError))
        this.deps.logger.error({ err: error, reportId }, 'report failed');
      await repository.update(reportId, {
        status: 'failed',
        finishedAt: new Date(),
        error: error instanceof AppError ? error.message : failureMessage(error),
        deliveryStatus: 'skipped',
      });
    } finally {
      // Whatever happened, the customer's token is gone when the job ends.
      await repository.update(reportId, { tokenCiphertext: null, leaseUntil: null });
    }
  }

  /** Generates, stores and delivers one claimed report. */
  private async produce(report: ReportRow): Promise<void> {
    const { repository } = this.deps;
    const reportId = report.id;
    const generator = GENERATORS[report.kind as ReportKind];
    if (!generator) throw new AppError(400, 'report_unavailable', 'This report has no generator');
    if (!report.tokenCiphertext)
      throw new AppError(400, 'token_gone', 'The token is no longer available: run the report again.');
    const token = this.deps.vault.open(report.tokenCiphertext);
    const requestedBy = await repository.requesterEmail(report.userId);
    const generated = await generator({
      platform: this.deps.platform.as({ token, organizationId: report.organizationId }),
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
}
