import {
  watchScheduleAnswerSchema,
  WATCH_MESSAGES,
  WATCH_DELIVERY_STATUSES,
  WATCH_RUN_STATUSES,
  type SessionUser,
  type WatchFindings,
  type WatchRun,
} from '@ce/contract';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import { keptChangesSchema, keptChecksSchema } from './watch-changes.js';
import { findingsInForce } from './watch-findings.js';
import type { WatchRunRow, WatchRunsRepository } from './watch-runs.repository.js';
import type { WatchService } from './watch.service.js';

/** What a run's kept changes say of the checks that moved and the findings open and waived. */
function summaryOf(changes: unknown): Pick<WatchRun, 'moved' | 'openFindings' | 'waivedFindings'> {
  const parsed = keptChangesSchema.safeParse(changes);
  if (!parsed.success) return { moved: [], openFindings: null, waivedFindings: null };
  const { checks, openFindings, waived, waivedItems } = parsed.data;
  return { moved: checks, openFindings, waivedFindings: waivedItems ?? waived.length };
}

/** A run's report as its list reads it. */
interface RunReport {
  id: string;
  status: string;
  done: number;
  total: number;
}

const underWay = (status: string) => status === 'queued' || status === 'running';

/** Where a run under way stands: its health check's steps (once started) and its backups ended of all. */
function progressOf(
  row: WatchRunRow,
  report: RunReport | undefined,
  backups: { status: string }[],
): WatchRun['progress'] {
  const health = report ? z.enum(WATCH_RUN_STATUSES).safeParse(report.status) : null;
  return {
    health: report && health?.success ? { status: health.data, done: report.done, total: report.total } : null,
    backups:
      row.kind === 'health'
        ? null
        : {
            done: backups.filter((backup) => backup.status === 'done' || backup.status === 'failed').length,
            total: row.accountGroups.length,
          },
  };
}

/** A watch's runs are listed this many at a time, newest first. */
const RUNS_LISTED = 50;

const storedState = z.object({
  status: z.enum(WATCH_RUN_STATUSES),
  trigger: z.enum(['schedule', 'now']),
  deliveryStatus: z.enum(WATCH_DELIVERY_STATUSES),
});

export interface WatchRunsDependencies {
  runs: WatchRunsRepository;
  watches: WatchService;
  audit: AuditLog;
  /** Queues a run for a worker. */
  send: (runId: string) => Promise<void>;
  /** Each run's report (its health check), by run id: its id, where it stands, its steps. */
  reportOf: (runIds: string[]) => Promise<Map<string, RunReport>>;
  /** A run's backups made so far, one per account group, each with where it stands. */
  backupsOf: (runId: string) => Promise<{ status: string }[]>;
  /** "Run now" runs one watch at most once in this many minutes (WATCH_RUN_NOW_EVERY_MINUTES; 0: no limit). */
  runNowEveryMinutes: number;
  clock: () => Date;
}

/** When "Run now" may run a watch again, in its owner's time zone, to the minute (rounded up). */
function whenAgain(at: Date, timeZone: string): string {
  const minute = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(minute);
  return `${time} (${timeZone})`;
}

/** "Run now" and a watch's runs, for those who see the watch. */
export class WatchRunsService {
  constructor(private readonly deps: WatchRunsDependencies) {}

  /** A run due now, through the scheduler's own rule (one run per watch and due time), queued. */
  async runNow(user: SessionUser, watchId: string): Promise<WatchRun> {
    const watch = await this.deps.watches.runnable(user, watchId);
    if ((await this.deps.runs.unfinished(watchId)).length > 0)
      throw new AppError(409, 'run_under_way', WATCH_MESSAGES.runUnderWay);
    const now = this.deps.clock();
    const minutes = this.deps.runNowEveryMinutes;
    const last = minutes > 0 ? await this.deps.runs.lastAskedNow(watchId) : null;
    if (last && now.getTime() - last.getTime() < minutes * 60_000) {
      const again = new Date(last.getTime() + minutes * 60_000);
      const zone = watchScheduleAnswerSchema.parse(watch.schedule).timeZone;
      throw new AppError(429, 'run_now_too_soon', WATCH_MESSAGES.runNowTooSoon(minutes, whenAgain(again, zone)));
    }
    const run = await this.deps.runs.runNow(watch, now);
    if (!run) {
      // Asked twice in the same instant: the one run already made.
      const [latest] = await this.deps.runs.list(watchId, 1);
      if (!latest) throw new Error('the run made in this instant is not there');
      return this.toApi(latest, new Map());
    }
    await this.deps.send(run.id);
    await this.deps.audit.record(user, 'watch.run-now', watch.organizationName, { watchId, runId: run.id });
    return this.toApi(run, new Map());
  }

  async list(user: SessionUser, watchId: string): Promise<WatchRun[]> {
    await this.deps.watches.visibleRow(user, watchId);
    const rows = await this.deps.runs.list(watchId, RUNS_LISTED);
    const reports = await this.deps.reportOf(rows.map((row) => row.id));
    // Only a run under way (one at most per watch) reads its backups: where it stands, said live.
    const backups = new Map<string, { status: string }[]>();
    for (const row of rows.filter((run) => underWay(run.status) && run.kind !== 'health'))
      backups.set(row.id, await this.deps.backupsOf(row.id));
    return rows.map((row) => this.toApi(row, reports, backups.get(row.id)));
  }

  /**
   * The open findings of the watch's latest health check, without those a waiver in force names (made before the
   * run or since): counted as My customers and the customer page count them (`findingsInForce`).
   */
  async findings(user: SessionUser, watchId: string): Promise<WatchFindings> {
    await this.deps.watches.visibleRow(user, watchId);
    const latest = await this.deps.runs.latestWithFindings(watchId);
    const checks = keptChecksSchema.safeParse(latest?.findings ?? []);
    if (!latest || !checks.success) return { at: null, findings: [] };
    const waivers = await this.deps.runs.activeWaivers(latest.organizationId, this.deps.clock());
    return {
      at: (latest.finishedAt ?? latest.createdAt).toISOString(),
      findings: findingsInForce(checks.data, waivers).open,
    };
  }

  private toApi(row: WatchRunRow, reports: Map<string, RunReport>, backups?: { status: string }[]): WatchRun {
    const { status, trigger, deliveryStatus } = storedState.parse(row);
    const report = reports.get(row.id);
    return {
      id: row.id,
      watchId: row.watchId,
      dueAt: row.dueAt.toISOString(),
      trigger,
      status,
      error: row.error,
      score: row.score,
      reportId: report?.id ?? null,
      delivery: { status: deliveryStatus, error: row.deliveryError },
      message: row.message,
      ...summaryOf(row.changes),
      progress: underWay(status) ? progressOf(row, report, backups ?? []) : null,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    };
  }
}
