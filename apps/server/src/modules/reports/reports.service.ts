import type { JobsAhead } from '../../core/jobs-ahead.js';
import {
  userMay,
  PATHS,
  REPORT_KINDS,
  reportKindSchema,
  type CreateReportInput,
  type ReportRequest,
  type SessionUser,
  type WorkNotification,
  REPORT_REQUEST_MESSAGES,
  healthFindingsSchema,
  type HealthFindings,
  type Measurements,
  type ReviewPackOptions,
} from '@ce/contract';
import { requireCapability } from '../../core/access.js';
import type { WatchRunScope } from '../../core/watch-run.js';
import { AppError } from '../../core/errors.js';
import { personOf, type SourcedEntry, type TimelineQuery } from '../../core/timeline.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { CustomerService } from '../customer/customer.service.js';
import type { UsageService } from '../usage/usage.service.js';
import { FINDINGS_FILE } from './kinds/health/generator.js';
import { sendReportJob } from './reports.job.js';
import { notifiedKinds, readableKinds } from './report-access.js';
import { optionsFor, toApi } from './report-request.js';
import type { ReportRow, ReportsRepository } from './reports.repository.js';

/** A watch run's health check: where it stands, and once done its findings and the PDF the message carries. */
export interface WatchHealthCheck {
  id: string;
  status: string;
  error: string | null;
}

/** A watch run's report as its runs list shows it: its id, where it stands, its steps done of all. */
export interface WatchRunReport {
  id: string;
  status: string;
  done: number;
  total: number;
}

export interface WatchHealthResults {
  findings: HealthFindings | null;
  /** What the platform measured, as the health check summed it up (null for a kind that reads none). */
  measurements: Measurements | null;
  pdf: { filename: string; contentType: string; content: Buffer } | null;
}

export interface ReportsDependencies {
  repository: ReportsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  customer: CustomerService;
  /** Whether reports are delivered in Webex on this installation. */
  delivers: boolean;
  usage: UsageService;
  jobsAhead: JobsAhead;
}

/** Report requests: create (sealing the token and queueing the job), list, read, download, run again. */
export class ReportsService {
  constructor(private readonly deps: ReportsDependencies) {}

  async create(user: SessionUser, input: CreateReportInput): Promise<ReportRequest> {
    const kind = REPORT_KINDS[input.kind];
    requireCapability(user, kind.capability, `Your role cannot request the ${kind.label}.`);
    if (kind.needsAccounts && input.accountGroups.length === 0) {
      throw new AppError(400, 'no_account_groups', REPORT_REQUEST_MESSAGES.noAccountGroups, [
        { path: 'accountGroups', message: REPORT_REQUEST_MESSAGES.noAccountGroups },
      ]);
    }
    const options = optionsFor(input, user);
    const scope = await this.deps.customer.scope(
      input.token,
      input.organization.id,
      input.accountGroups.map((group) => group.aid),
    );
    const row = await this.deps.repository.insert(
      {
        userId: user.id,
        kind: input.kind,
        organizationId: scope.organization.id,
        organizationName: scope.organization.name,
        accountGroups: input.accountGroups.map(({ aid }) => ({ aid, accountGroupName: scope.accountGroupName(aid) })),
        options,
        deliveryStatus: this.deps.delivers ? 'pending' : 'skipped',
      },
      (tx) => this.deps.tokens.seal(input.token, tx),
    );
    try {
      await sendReportJob(this.deps.queue, this.deps.repository, row);
    } catch (error) {
      await this.deps.repository.update(row.id, {
        status: 'failed',
        finishedAt: new Date(),
        error: 'The report could not be queued. Run it again.',
        deliveryStatus: 'skipped',
      });
      await this.deps.tokens.erase(row.tokenId);
      throw error;
    }
    await this.deps.usage.record({ tool: kind.tool, userId: user.id });
    // The request as it was accepted: queued (a worker may already have taken it; its page follows it from there).
    return toApi({ ...row, requestedBy: user.email }, [], await this.deps.jobsAhead([row]));
  }

  /**
   * The health check of watch run `run` (decision 0031), once: a second call (the run taken up again after a crash)
   * finds the first's report. It is the owner's, queued like any report, not delivered on its own.
   */
  async startForWatch(run: WatchRunScope, token: string): Promise<string> {
    const existing = await this.deps.repository.findByWatchRun(run.id);
    if (existing) return existing.id;
    const row = await this.deps.repository.insertOnce(
      {
        userId: run.userId,
        kind: 'ahc-v7',
        organizationId: run.organizationId,
        organizationName: run.organizationName,
        accountGroups: run.accountGroups,
        options: {},
        deliveryStatus: 'skipped',
        watchRunId: run.id,
      },
      (tx) => this.deps.tokens.seal(token, tx),
    );
    if (row) await sendReportJob(this.deps.queue, this.deps.repository, row);
    const report = row ?? (await this.deps.repository.findByWatchRun(run.id));
    if (!report) throw new Error('the watch run has no report');
    return report.id;
  }

  /**
   * A watch's review pack (its monthly duty): the owner's, with the watch's token, kept in My Reports and sent to
   * the owner's Webex like any report. Requested once under `duty` (unique), whatever retries or workers ask again:
   * the report's id, or null when it was requested before.
   */
  async startPackForWatch(
    run: WatchRunScope,
    token: string,
    options: ReviewPackOptions,
    duty: string,
  ): Promise<string | null> {
    const row = await this.deps.repository.insertOnce(
      {
        userId: run.userId,
        kind: 'review-pack',
        organizationId: run.organizationId,
        organizationName: run.organizationName,
        accountGroups: run.accountGroups,
        options,
        deliveryStatus: this.deps.delivers ? 'pending' : 'skipped',
        watchDuty: duty,
      },
      (tx) => this.deps.tokens.seal(token, tx),
    );
    if (!row) return null;
    await sendReportJob(this.deps.queue, this.deps.repository, row);
    await this.deps.usage.record({ tool: REPORT_KINDS['review-pack'].tool, userId: run.userId });
    return row.id;
  }

  /** The reports of these watch runs, by run id: each one's id, where it stands and its steps. */
  async watchRunReports(runIds: string[]): Promise<Map<string, WatchRunReport>> {
    const rows = await this.deps.repository.ofWatchRuns(runIds);
    return new Map(
      rows.flatMap((row) =>
        row.watchRunId
          ? [[row.watchRunId, { id: row.id, status: row.status, done: row.progressDone, total: row.progressTotal }]]
          : [],
      ),
    );
  }

  /** Where watch run `runId`'s health check stands (a run asks every few seconds: its status only). */
  async ofWatchRun(runId: string): Promise<WatchHealthCheck | null> {
    const row = await this.deps.repository.findByWatchRun(runId);
    return row ? { id: row.id, status: row.status, error: row.error } : null;
  }

  /** What a watch run's finished health check found, and its PDF (read once, when the run concludes). */
  async watchRunResults(reportId: string): Promise<WatchHealthResults> {
    const [findings, pdf] = await Promise.all([
      this.deps.repository.artifactNamed(reportId, (name) => name === FINDINGS_FILE),
      this.deps.repository.artifactNamed(reportId, (name) => name.endsWith('.pdf')),
    ]);
    const parsed = findings ? healthFindingsSchema.safeParse(JSON.parse(findings.content.toString('utf8'))) : null;
    return {
      findings: parsed?.success ? parsed.data : null,
      measurements: (parsed?.success && parsed.data.measurements) || null,
      pdf: pdf ? { filename: pdf.filename, contentType: pdf.contentType, content: pdf.content } : null,
    };
  }

  async list(user: SessionUser, scope: 'mine' | 'all'): Promise<ReportRequest[]> {
    const everyone = scope === 'all' && userMay(user, 'seeAllRuns');
    const rows = await this.deps.repository.list({
      userId: everyone ? undefined : user.id,
      kinds: readableKinds(user),
      limit: 200,
    });
    const [artifacts, ahead] = await Promise.all([
      this.deps.repository.artifactsOf(rows.map((row) => row.id)),
      this.deps.jobsAhead(rows),
    ]);
    return rows.map((row) => toApi(row, artifacts, ahead));
  }

  /** A report the user may read: their own (or anyone's, for everyone's runs), of a kind a token carries. */
  private async visible(user: SessionUser, id: string): Promise<ReportRow> {
    const row = await this.deps.repository.find(id);
    if (!row || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'report_not_found', 'No such report');
    if (user.apiToken) {
      // A kind this version no longer makes is one no token carries.
      const kind = reportKindSchema.safeParse(row.kind);
      if (!kind.success) throw new AppError(404, 'report_not_found', 'No such report');
      requireCapability(user, REPORT_KINDS[kind.data].capability);
    }
    return row;
  }

  async get(user: SessionUser, id: string): Promise<ReportRequest> {
    const row = await this.visible(user, id);
    const [artifacts, requestedBy, ahead] = await Promise.all([
      this.deps.repository.artifactsOf([row.id]),
      this.deps.repository.requesterEmail(row.userId),
      this.deps.jobsAhead([row]),
    ]);
    return toApi({ ...row, requestedBy }, artifacts, ahead);
  }

  async artifact(user: SessionUser, id: string, artifactId: string) {
    await this.visible(user, id);
    const artifact = await this.deps.repository.artifact(id, artifactId);
    if (!artifact) throw new AppError(404, 'artifact_not_found', 'No such file');
    return artifact;
  }

  /** The user's reports that failed, or were not delivered, after `since`: what the shell tells them. */
  async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
    const kinds = notifiedKinds(user);
    if (kinds.length === 0) return [];
    const rows = await this.deps.repository.problemsSince(user.id, since, limit, kinds);
    return rows.flatMap((row): WorkNotification[] => {
      if (!row.finishedAt) return [];
      const kind = reportKindSchema.safeParse(row.kind);
      const label = kind.success ? REPORT_KINDS[kind.data].label : 'Report';
      const about = { source: 'report', path: PATHS.reports, at: row.finishedAt.toISOString() } as const;
      if (row.status === 'failed')
        return [
          {
            ...about,
            key: `${row.id}:failed`,
            outcome: 'failed',
            title: `${label} failed`,
            message: `${row.organizationName}: ${row.error ?? 'The report could not be made.'}`,
          },
        ];
      return [
        {
          ...about,
          key: `${row.id}:not-delivered`,
          outcome: 'not-delivered',
          title: `${label} not sent to Webex`,
          message: `${row.organizationName}: ${row.deliveryError ?? 'Webex delivery failed'}. Its files are in My Reports.`,
        },
      ];
    });
  }

  /** One organization's reports, for its page (a TimelineSource). */
  readonly tools = ['reports'] as const;
  async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
    // A session sees its own reports whatever its role holds now; a personal API token the kinds it carries.
    const { caller } = query;
    const kinds = notifiedKinds(caller);
    if (kinds.length === 0) return [];
    const rows = await this.deps.repository.timeline(query, kinds);
    return rows.map(({ report, ...owner }) => {
      const kind = reportKindSchema.safeParse(report.kind);
      return {
        id: report.id,
        tool: 'reports',
        what: kind.success ? `${REPORT_KINDS[kind.data].label} report` : 'Report',
        accountGroups: report.accountGroups.map((group) => group.accountGroupName),
        person: personOf(owner),
        createdAt: report.createdAt.toISOString(),
        status: report.status,
        // Made but not sent to Webex, as its notification says: done with failures.
        outcome: report.status === 'done' && report.deliveryStatus === 'failed' ? 'done-with-failures' : undefined,
        path: `${PATHS.reports}?report=${report.id}`,
        organizationName: report.organizationName,
      };
    });
  }

  /** How many of the user's reports (of the kinds a personal API token carries) are still queued or running. */
  async activeCount(user: SessionUser): Promise<number> {
    const kinds = notifiedKinds(user);
    return kinds.length === 0 ? 0 : this.deps.repository.activeCount(user.id, kinds);
  }

  /** Deletes finished reports (and their files) created before `before`. */
  pruneFinished(before: Date): Promise<number> {
    return this.deps.repository.deleteFinishedBefore(before);
  }

  /** Runs a report again with the same parameters and a freshly pasted token. */
  async rerun(user: SessionUser, id: string, token: string): Promise<ReportRequest> {
    const row = await this.visible(user, id);
    const kind = reportKindSchema.safeParse(row.kind);
    if (!kind.success) throw new AppError(409, 'report_kind_gone', 'This report kind is no longer available.');
    return this.create(user, {
      kind: kind.data,
      token,
      organization: { id: row.organizationId, name: row.organizationName },
      accountGroups: row.accountGroups,
      options: row.options,
    });
  }
}
