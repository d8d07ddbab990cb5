import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  measurementsSchema,
  PATHS,
  WATCH_PAUSE_REASONS,
  watchScheduleSchema,
  watchSpeakWhenSchema,
  type Measurements,
} from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import type { CallAudit } from '../../core/call-audit.js';
import { AppError } from '../../core/errors.js';
import { EVERY_MINUTE, periodicJob, queuedJob, type Job } from '../../core/jobs.js';
import { DAY_MS, LeasedJobs, type HeldJob } from '../../core/leased-job.js';
import type { LeasedJobDependencies } from '../../core/lease.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { SubjectDelivery, WebexDeliveries } from '../../adapters/webex-delivery.js';
import type { watchRuns } from '../../db/schema.js';
import type { BackupsService } from '../backup-restore/backup-restore.service.js';
import type { ReportsService } from '../reports/reports.service.js';
import { scoreOf } from '../reports/index.js';
import {
  compareRuns,
  keptChangesSchema,
  keptChecks,
  keptChecksSchema,
  whatToSay,
  type KeptFindings,
  regroupedSince,
} from './watch-changes.js';
import { waivedOfKey, waiversOfOthers, withoutWaived } from './watch-findings.js';
import { watchMessage } from './watch-message.js';
import { driftSince } from './watch-run-drift.js';
import { measuredMoves } from './measured-moves.js';
import type { WatchRunRow, WatchRunsRepository } from './watch-runs.repository.js';
import type { WatchScheduler } from './watch-schedule.job.js';
import type { RoomMembership } from './watch-api.js';
import { deliverRunMessage } from './watch-run-message.js';
import { requestDuePack } from './watch-review-duty.js';
import type { WatchService } from './watch.service.js';
import type { DriftAttribution } from './watch-attribution.service.js';

export const WATCH_RUN_QUEUE = 'watch.run';
/** How often a run looks at the health check and backups it started, while they work. */
const POLL_MS = 2_000;
/** The weekly quiet line is due when nothing was said for this long. */
const QUIET_LINE_EVERY_MS = 7 * DAY_MS;

export interface WatchRunJobDependencies extends LeasedJobDependencies {
  runs: WatchRunsRepository;
  watches: WatchService;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  reports: ReportsService;
  backups: BackupsService;
  webex: WebexDeliveries | null;
  callAudit: CallAudit;
  publicUrl: string;
  historyDays: number;
  clock: () => Date;
  /** Makes the due runs (every worker instance's, and the minute's job). */
  scheduler: Pick<WatchScheduler, 'schedule'>;
  /** Whether the owner is a member of a Webex room (Webex's memberships), asked before each message to a room. */
  roomMembership?: RoomMembership;
  /** Says who made each change of the drift: us, the customer, or unknown. */
  attribution: DriftAttribution;
}

/** What a run found, kept on its row for the next run. */
export interface RunOutcome {
  findings: KeptFindings['checks'] | null;
  /** What the platform measured (kept with the run as its score is: the customer page's trends). */
  measurements: Measurements | null;
  backups: { aid: string; backupId: string }[] | null;
  reportId: string | null;
  pdf: { filename: string; contentType: string; content: Buffer } | null;
}

/** A run ended because the watch can no longer run (paused, its token gone or refused): said on the run. */
class RunStopped extends Error {}

/**
 * The runs of watches (decision 0031): the scheduler that makes each due run once, and the run, a leased job that
 * starts the watch's health check and backups (background work at the organization's budget), waits for them
 * under its lease, compares with the watch's previous run and sends one message of what changed.
 */
export class WatchRunJobs {
  private readonly leased: LeasedJobs<typeof watchRuns>;

  constructor(private readonly deps: WatchRunJobDependencies) {
    const { runs, queue } = deps;
    this.leased = new LeasedJobs(deps, {
      name: 'watch run',
      metric: 'watch_runs',
      leases: runs.leases,
      queue,
      queueOf: () => WATCH_RUN_QUEUE,
      send: (row) => this.send(row.id),
      unrunnable: async (row) => {
        const watch = await runs.watch(row.watchId);
        return watch && watch.status === 'active' && watch.tokenId ? null : WATCH_MESSAGES_STOPPED;
      },
      giveUp: (row, reason) =>
        runs.update(row.id, { status: 'failed', error: reason, finishedAt: new Date(), leaseUntil: null }),
      prune: async (days) => ({ deleted: await runs.deleteFinishedBefore(new Date(Date.now() - days * DAY_MS)) }),
    });
  }

  jobs(): Job[] {
    return [
      queuedJob({
        queue: WATCH_RUN_QUEUE,
        data: z.object({ runId: z.uuid() }),
        run: ({ runId }) => this.run(runId),
      }),
      // Tokens past their consent go first, then the due runs are made (each once, whichever instance schedules: every
      // worker's own scheduler makes them too, a moment after the minute).
      periodicJob('watch.schedule', EVERY_MINUTE, async () => {
        const expired = await this.deps.watches.expire();
        const scheduled = await this.schedule();
        if (expired > 0 || scheduled > 0) this.deps.logger.info({ expired, scheduled }, 'watches scheduled');
        // Runs that waited for their organization's turn, whose turn came with a run that ended elsewhere.
        for (const organizationId of await this.deps.runs.organizationsWaiting()) await this.dispatch(organizationId);
      }),
      ...this.leased.keepers('watch-runs', this.deps.historyDays),
    ];
  }

  /** Makes the runs due by now, each once (the scheduler's pass); answers how many. */
  schedule(): Promise<number> {
    return this.deps.scheduler.schedule();
  }

  async send(runId: string): Promise<void> {
    const jobId = await this.deps.queue.send(
      WATCH_RUN_QUEUE,
      { runId },
      { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 * 60 },
    );
    await this.deps.runs.noteJob(runId, jobId);
  }

  recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    return this.leased.recoverOrphans(all, now);
  }

  /** The instance stops: the runs under way are handed back (their parts are too) and resume elsewhere at once. */
  stop(): Promise<void> {
    return this.leased.stop();
  }

  /**
   * Sends the runs of an organization whose turn it is (issue 55): a run not in turn when its job came stays
   * queued, and is sent again when a run of that organization ends (here, or by the scheduler's minute elsewhere).
   */
  async dispatch(organizationId: string): Promise<void> {
    for (const runId of await this.deps.runs.inTurn(organizationId)) await this.send(runId);
  }

  async run(runId: string): Promise<void> {
    await this.work(runId);
    // A run that ended frees its organization's turn for the next.
    const row = await this.deps.runs.find(runId);
    if (row && row.status !== 'queued' && row.status !== 'running') await this.dispatch(row.organizationId);
  }

  private work(runId: string): Promise<void> {
    return this.leased.run(runId, {
      work: (job, signal) => this.runParts(job, signal),
      done: async () => true,
      failed: async (job, error) => {
        if (!(error instanceof RunStopped || error instanceof AppError || error instanceof PlatformError))
          this.deps.logger.error({ err: error, runId }, 'watch run failed');
        const message =
          error instanceof RunStopped || error instanceof AppError || error instanceof PlatformError
            ? error.message
            : 'The watch run stopped because of an internal error.';
        return job.write({ status: 'failed', error: message, finishedAt: new Date(), deliveryStatus: 'none' });
      },
      ended: async () => undefined,
    });
  }

  private async runParts(job: HeldJob<typeof watchRuns>, signal: AbortSignal): Promise<void> {
    const { runs, watches, tokens } = this.deps;
    const run = job.row;
    const watch = await runs.watch(run.watchId);
    if (!watch || watch.status !== 'active') throw new RunStopped(WATCH_MESSAGES_STOPPED);
    // A queued run checks the consent's expiry before its first call: past it, the token goes and the run ends.
    if (!watch.tokenExpiresAt || watch.tokenExpiresAt <= this.deps.clock()) {
      await watches.stop(watch, 'expired');
      throw new RunStopped(WATCH_PAUSE_REASONS.expired);
    }
    // A token sealed under an older key is sealed again under the current one: retiring that key later keeps it.
    const token = await tokens.openAndRenew(watch.tokenId);
    if (token === null) {
      await watches.stop(watch, 'keyRetired');
      throw new RunStopped(WATCH_PAUSE_REASONS.keyRetired);
    }
    // The run's first call proves the token (decision 0031): a 401 ends the run there, before any part starts.
    await this.checkToken(watch, token, run, signal);
    const scope = { ...run, accountGroups: run.accountGroups };
    const health = run.kind !== 'backup';
    const backup = run.kind !== 'health';
    if (health) await this.deps.reports.startForWatch(scope, token);
    if (backup) await this.deps.backups.startForWatch(scope, token);
    const outcome = await this.waitForParts(run, health, backup, signal);
    if (outcome.result === undefined) {
      // A part refused by the platform is the customer's token gone: asked once more, a 401 stops the watch.
      await this.checkToken(watch, token, run, signal);
      throw new RunStopped(outcome.failed);
    }
    await this.conclude(job, outcome.result, token, signal);
    // Last month's pack, once its last measurements are stored.
    if (health) await requestDuePack(this.deps, watch, scope, token);
  }

  /** One cheap call with the stored token: a 401 (revoked or expired at the customer) stops the watch. */
  private async checkToken(
    watch: NonNullable<Awaited<ReturnType<WatchRunsRepository['watch']>>>,
    token: string,
    run: WatchRunRow,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      await this.deps.platform
        .as({
          token,
          organizationId: run.organizationId,
          lane: 'scheduled',
          signal,
          onAnswer: this.deps.callAudit.observer(run.id),
        })
        .accountGroups.list(signal);
    } catch (error) {
      if (error instanceof PlatformError && error.status === 401) {
        await this.deps.watches.stop(watch, 'refused');
        throw new RunStopped(WATCH_PAUSE_REASONS.refused);
      }
      throw error;
    }
  }

  /** Waits (under the lease) until the run's health check and backups ended; what they found, or why one failed. */
  private async waitForParts(
    run: WatchRunRow,
    health: boolean,
    backup: boolean,
    signal: AbortSignal,
  ): Promise<{ failed: string; result?: undefined } | { failed?: undefined; result: RunOutcome }> {
    for (;;) {
      signal.throwIfAborted();
      const check = health ? await this.deps.reports.ofWatchRun(run.id) : null;
      const made = backup ? await this.deps.backups.ofWatchRun(run.id) : [];
      const ended = (status: string | undefined) => status === 'done' || status === 'failed';
      const healthEnded = !health || ended(check?.status);
      const backupsEnded =
        !backup || (made.length === run.accountGroups.length && made.every((row) => ended(row.status)));
      if (healthEnded && backupsEnded) {
        if (check && check.status === 'failed')
          return { failed: `The health check failed: ${check.error ?? 'no reason given'}` };
        const failedBackup = made.find((row) => row.status === 'failed');
        if (failedBackup)
          return {
            failed: `The backup of ${failedBackup.accountGroupName} failed: ${failedBackup.error ?? 'no reason given'}`,
          };
        const found = check ? await this.deps.reports.watchRunResults(check.id) : null;
        return {
          result: {
            findings: found?.findings ? keptChecks(found.findings.checks) : null,
            measurements: found?.measurements ?? null,
            backups: backup ? made.map((row) => ({ aid: row.aid, backupId: row.id })) : null,
            reportId: check?.id ?? null,
            pdf: found?.pdf ?? null,
          },
        };
      }
      await sleep(POLL_MS, undefined, { signal });
    }
  }

  /** Compares with the previous run, records what this one found, and says what changed (once). */
  private async conclude(
    job: HeldJob<typeof watchRuns>,
    outcome: RunOutcome,
    token: string,
    signal: AbortSignal,
  ): Promise<void> {
    const { runs } = this.deps;
    const run = job.row;
    const watch = await runs.watch(run.watchId);
    if (!watch) throw new RunStopped(WATCH_MESSAGES_STOPPED);
    const last = await runs.previous(run);
    // After an edit of its account groups the run is a new baseline: nothing is compared with the run before.
    const regrouped = regroupedSince(last?.accountGroups ?? null, run.accountGroups);
    const previous = regrouped ? undefined : last;
    const earlier = previous?.findings ? keptChecksSchema.safeParse(previous.findings) : null;
    // Waived findings are left out of what is compared and said, on both sides: a finding waived since the previous
    // run does not resolve. The score is the health check's own, as its report says it: a waiver never moves it.
    const waivers = await runs.activeWaivers(run.organizationId, this.deps.clock());
    const counted = outcome.findings ? withoutWaived(outcome.findings, waivers) : null;
    const now = outcome.findings && counted ? { score: scoreOf(outcome.findings).value, checks: counted.checks } : null;
    // The previous run is counted with the waivers in force then too (its waived keys): a finding whose waiver
    // expired since comes back as new, and is said.
    const waivedThen = keptChangesSchema.parse(previous?.changes ?? {}).waived.map(waivedOfKey);
    const earlierCounted = earlier?.success ? withoutWaived(earlier.data, [...waivers, ...waivedThen]) : null;
    const before =
      earlier?.success && earlierCounted ? { score: scoreOf(earlier.data).value, checks: earlierCounted.checks } : null;
    // Each change with who made it, from our journal and the platform's audit log since the previous run.
    const drift = await this.deps.attribution.attribute(
      run,
      { since: last?.createdAt ?? run.createdAt, until: this.deps.clock() },
      token,
      signal,
      // Drift per group: a group the last run backed up too is compared still; an added one starts from this run.
      await driftSince(this.deps.backups, last, outcome.backups ?? [], run.accountGroups),
    );
    const changes = {
      ...compareRuns(before, now, drift, previous === undefined, counted?.waived ?? []),
      regrouped,
      waivedItems: counted?.waivedItems ?? null,
      // Waivers of this watch's findings made by others since the previous run: its owner hears who, why, until when.
      ...waiversOfOthers(
        waivers,
        watch.userId,
        [...(counted?.waived ?? []), ...(earlierCounted?.waived ?? [])],
        keptChangesSchema.parse(previous?.changes ?? {}).othersWaivers,
        new Map([...(earlier?.success ? earlier.data : []), ...(outcome.findings ?? [])].map((c) => [c.id, c.title])),
      ),
    };
    const timeZone = watchScheduleSchema.safeParse(watch.schedule).data?.timeZone;
    // What the platform measured that moved, in the watch's time zone (a run before measurements were kept: none).
    changes.measured = measuredMoves(
      measurementsSchema.safeParse(previous?.measurements).data ?? null,
      outcome.measurements,
      { now: this.deps.clock(), ...(timeZone ? { timeZone } : {}) },
    );
    const lastSaid = await runs.lastSaid(run.watchId, run.createdAt);
    const quietLineDue = !lastSaid || this.deps.clock().getTime() - lastSaid.getTime() >= QUIET_LINE_EVERY_MS;
    const say = whatToSay(changes, watchSpeakWhenSchema.parse(watch.speakWhen), quietLineDue);
    const message = say
      ? watchMessage(say, changes, {
          organizationName: run.organizationName,
          accountGroups: run.accountGroups.map((group) => group.accountGroupName),
          reportUrl: outcome.reportId ? `${this.deps.publicUrl}${PATHS.reports}?report=${outcome.reportId}` : null,
          // The drift view: the customer's timeline of the changes at the customer, each with who made it.
          driftUrl: `${this.deps.publicUrl}${PATHS.customers}/${encodeURIComponent(run.organizationId)}?tool=changes&days=30#timeline-heading`,
          nextRunAt: watch.nextRunAt,
          timeZone,
        })
      : null;
    await job.mustWrite({
      score: now?.score ?? null,
      // As the health check found them: lists apply the waivers in force when they read them (`findingsInForce`).
      findings: outcome.findings ?? null,
      measurements: outcome.measurements,
      backups: outcome.backups,
      changes: { ...changes },
      message,
    });
    const delivery = message
      ? await deliverRunMessage(this.deps, job, watch, message, outcome.pdf)
      : { status: 'quiet', error: null };
    await job.mustWrite({
      status: 'done',
      finishedAt: new Date(),
      error: null,
      // A message still waiting for Webex stays pending: the retries say how it ended (`deliveryEnded`).
      ...(delivery.status === 'pending' ? {} : { deliveryStatus: delivery.status }),
      deliveryError: delivery.error,
    });
  }

  /** The retries ended a run's message after the run did (sent, or given up): the run says it. */
  async deliveryEnded(runId: string, state: SubjectDelivery): Promise<void> {
    await this.deps.runs.deliveryEnded(runId, state.status === 'sent' ? 'sent' : 'failed', state.error);
  }
}

const WATCH_MESSAGES_STOPPED = 'The watch was paused or deleted before this run could start.';
