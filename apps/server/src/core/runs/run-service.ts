import { runOutcome, userMay, type SessionUser, type TimelineTool, type WorkNotification } from '@ce/contract';
import { resultsFile, type ResultRow } from '../../report-kit/change-set-results.js';
import { AppError } from '../errors.js';
import { personOf, type SourcedEntry, type TimelineQuery } from '../timeline.js';
import type { JobsAhead } from '../jobs-ahead.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { endRun, sendChangeSetJob } from '../change-sets/job.js';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow, ItemTotals } from '../change-sets/repository.js';
import { changeSetProblems, changeSetTotals } from '../change-sets/summaries.js';
import { assertUndoable, startUndo, type OrganizationReader, type WroteInto } from '../change-sets/undo.js';

/** A run as its tool shows it: the row, who asked for it, and the jobs ahead of it while it is queued. */
export type RunRow = ChangeSetRow & { requestedBy: string; ahead: number | null; message?: RunMessage | null };
/** Where a run's Webex message stands (`changeSetSchema.message`). */
export interface RunMessage {
  status: 'waiting' | 'sent' | 'failed';
  error: string | null;
}

/** What every tool's run shows of itself: who asked, where, how it went, when, and its undo. */
export function runBasics(row: RunRow, totals: ItemTotals[]) {
  return {
    id: row.id,
    requestedBy: row.requestedBy,
    organizationName: row.organizationName,
    ahead: row.ahead,
    error: row.error,
    totals: changeSetTotals(totals, row.id),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    undoOf: row.undoOf,
    undoneBy: row.undoneBy,
    message: row.message ?? null,
  };
}

/**
 * What a writing tool tells the run service about its runs: the kinds they have, how they are named in
 * words and shown in the API, how one is undone, its results file and its notifications. The tool's
 * planner and item actions are registered with the change-set engine (`ChangeSetTools`); this is the rest.
 */
export interface RunKind<Run, Summary = never> {
  /** The kinds of change set that are this tool's runs (their undos included). */
  kinds: readonly string[];
  /** Which tool a customer's page lists them under. */
  timeline: TimelineTool;
  /** How the tool names one of its runs in messages: "run", "migration", "restore". */
  noun: string;
  /** A run that is not there, or not the user's: the 404's code and words. */
  notFound: { code: string; message: string; /** Words for an id that is another tool's run. */ otherTool?: string };
  /** The run as a list shows it (a tool whose runs are not listed has none). */
  summary?: (row: RunRow, totals: ItemTotals[]) => Summary;
  /** The run with its items. */
  run(row: RunRow, items: ChangeItemRow[], totals: ItemTotals[]): Run;
  /** How a run is undone; a tool without it has no undo. */
  undo?: {
    /** The kind of run that can be undone, and the words refusing any other. */
    of: string;
    notUndoable: string;
    /** The kind of the undo (registered with `undoKind`). */
    kind: string;
    /** Words when the run crossed to a second organization and that organization's token is missing. */
    targetTokenRequired?: string;
    /** Why a finished run leaves nothing to undo, or null. */
    nothingToUndo?(items: ChangeItemRow[]): string | null;
    /** Where the run wrote (its undo writes there: the tokens must read it). */
    wroteInto(row: ChangeSetRow): WroteInto;
    /** What the undo stores (the engine adds `sourceRunId`). */
    input(row: ChangeSetRow): Record<string, unknown>;
  };
  /**
   * Where a run worked, as a customer's page names it, when the groups its items touched do not say it (a migration's
   * both sides: "Acme - Data Centers → Globex - Trading Platform").
   */
  timelineAccountGroups?: (row: ChangeSetRow) => string[] | undefined;
  /** The results file: its name's first word ("restore") and one row per item. */
  results?: { name: string; rows: (items: ChangeItemRow[]) => ResultRow[] };
  /** Where the tool's runs that ended badly are told: the notification source, the kind's label, the page. */
  notifications: {
    source: WorkNotification['source'];
    label: (kind: string) => string;
    /** Where each failure's reason is, in words ("the run's results"). */
    where: string;
    path: (kind: string) => WorkNotification['path'];
  };
}

export interface RunServiceDependencies {
  repository: ChangeSetRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  customer: OrganizationReader;
  jobsAhead: JobsAhead;
  /** Where the run's Webex message stands, for a tool that sends one (by its subject, `change-set:<id>`). */
  messageOf?: (subject: string) => Promise<RunMessage | null>;
}

/** A run to start: what its tool planned from the request, once the tokens were found to read it. */
export interface RunStart {
  kind: string;
  organization: { id: string; name: string };
  /** The second organization a run writes into, when it crosses to one. */
  targetOrganizationId?: string | null;
  input: Record<string, unknown>;
  token: string;
  targetToken?: string;
}

/**
 * The runs of one writing tool, as change sets the engine carries out: start, read, list, undo (the tokens
 * checked against where the run wrote before anything is queued), results file and notifications. Every
 * writing tool has one, told its kinds by a `RunKind`; only the tool's planning and actions are its own.
 */
export class RunService<Run, Summary = never> {
  constructor(
    private readonly deps: RunServiceDependencies,
    readonly kind: RunKind<Run, Summary>,
  ) {}

  /** Starts a run: its tokens sealed with it in one transaction, then queued (or ended if it cannot be). */
  async start(user: SessionUser, start: RunStart): Promise<Run> {
    const { repository, tokens } = this.deps;
    const target = start.targetOrganizationId ? start.targetToken : undefined;
    const row = await repository.insertRun(
      {
        userId: user.id,
        kind: start.kind,
        organizationId: start.organization.id,
        organizationName: start.organization.name,
        targetOrganizationId: start.targetOrganizationId ?? null,
        input: start.input,
      },
      (tx) => tokens.seal(start.token, tx),
      target ? (tx) => tokens.seal(target, tx) : undefined,
    );
    // The run as it was made (queued): read before a worker may take it, so the answer never depends on its speed.
    const created = await this.get(user, row.id);
    await this.enqueue(row);
    return created;
  }

  private async enqueue(row: ChangeSetRow): Promise<void> {
    try {
      await sendChangeSetJob(this.deps.queue, this.deps.repository, row.id);
    } catch (error) {
      const words = `The ${this.kind.noun} could not be queued. Start it again.`;
      await endRun(this.deps.repository, this.deps.tokens, row, words);
      throw error;
    }
  }

  /** A run of this tool that the user may see (their own, or any with `seeAllRuns`), or a 404 in words. */
  async visible(user: SessionUser, id: string): Promise<ChangeSetRow> {
    const { notFound, kinds } = this.kind;
    const row = await this.deps.repository.findRun(id);
    if (!row || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, notFound.code, notFound.message);
    // Every tool's runs share one table: another tool's id is no run of this one.
    if (!kinds.includes(row.kind)) throw new AppError(404, notFound.code, notFound.otherTool ?? notFound.message);
    return row;
  }

  async get(user: SessionUser, id: string): Promise<Run> {
    const row = await this.visible(user, id);
    const [items, totals, requestedBy, ahead, message] = await Promise.all([
      this.deps.repository.items(id),
      this.deps.repository.totals([id]),
      this.deps.repository.requesterEmail(row.userId),
      this.deps.jobsAhead([row]),
      this.deps.messageOf?.(`change-set:${id}`) ?? null,
    ]);
    return this.kind.run({ ...row, requestedBy, ahead: ahead.get(id) ?? null, message }, items, totals);
  }

  /** The user's recent runs (of `kinds`, all of the tool's by default), newest first. */
  async list(user: SessionUser, kinds: readonly string[] = this.kind.kinds): Promise<Summary[]> {
    const { repository } = this.deps;
    const { summary, notFound, noun } = this.kind;
    if (!summary) throw new AppError(404, notFound.code, `The ${noun}s are not listed.`);
    const rows = await repository.listRuns({ userId: user.id, kinds: [...kinds], limit: 50 });
    const [totals, ahead] = await Promise.all([
      repository.totals(rows.map((row) => row.id)),
      this.deps.jobsAhead(rows),
    ]);
    return rows.map((row) => summary({ ...row, ahead: ahead.get(row.id) ?? null }, totals));
  }

  /**
   * Undoes a finished run as a run of its own, through the one undo path: the run must be of the undoable
   * kind, finished and not undone, have left something to undo, and the tokens must read where it wrote.
   */
  async undo(user: SessionUser, id: string, tokens: { token: string; targetToken?: string }): Promise<Run> {
    const undo = this.kind.undo;
    if (!undo) throw new AppError(400, 'not_undoable', `A ${this.kind.noun} cannot be undone.`);
    const source = await this.visible(user, id);
    if (source.kind !== undo.of) throw new AppError(400, 'not_undoable', undo.notUndoable);
    assertUndoable(source, this.kind.noun);
    if (source.targetOrganizationId && !tokens.targetToken && undo.targetTokenRequired)
      throw new AppError(400, 'target_token_required', undo.targetTokenRequired);
    const nothing = undo.nothingToUndo?.(await this.deps.repository.items(id)) ?? null;
    if (nothing) throw new AppError(400, 'nothing_to_undo', nothing);
    const row = await startUndo({
      ...this.deps,
      ...tokens,
      userId: user.id,
      source,
      wroteInto: undo.wroteInto(source),
      kind: undo.kind,
      input: undo.input(source),
      noun: this.kind.noun,
    });
    return this.get(user, row.id);
  }

  /** The results file of a run (or its undo): XLSX or CSV, text formula-safe. */
  async results(user: SessionUser, id: string, format: 'xlsx' | 'csv') {
    const results = this.kind.results;
    if (!results) throw new AppError(404, this.kind.notFound.code, `A ${this.kind.noun} has no results file.`);
    const row = await this.visible(user, id);
    const rows = results.rows(await this.deps.repository.items(id));
    return resultsFile(
      `${results.name}-${row.createdAt.toISOString().slice(0, 10)}-${row.id.slice(0, 8)}`,
      rows,
      format,
    );
  }

  /** The user's runs that ended after `since` having failed, or with items that failed. */
  async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
    const { repository } = this.deps;
    const { notifications, kinds } = this.kind;
    const rows = await repository.problemsSince(user.id, since, limit, [...kinds]);
    const totals = await repository.totals(rows.map((row) => row.id));
    return changeSetProblems(rows, totals, notifications.label, notifications.where).map(({ kind, ...problem }) => ({
      ...problem,
      source: notifications.source,
      path: notifications.path(kind),
    }));
  }

  /** One organization's runs of this tool, for its page (a TimelineSource): the writing tools are the Tools group's. */
  readonly capability = 'tools' as const;
  get tools(): readonly TimelineTool[] {
    return [this.kind.timeline];
  }
  async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
    const { notifications, kinds, timeline } = this.kind;
    const rows = await this.deps.repository.timeline(query, [...kinds]);
    const totals = await this.deps.repository.totals(rows.map(({ run }) => run.id));
    return rows.map(({ run, accountGroups, ...owner }) => ({
      id: run.id,
      tool: timeline,
      what: notifications.label(run.kind),
      accountGroups: this.kind.timelineAccountGroups?.(run) ?? accountGroups,
      person: personOf(owner),
      createdAt: run.createdAt.toISOString(),
      status: run.status,
      // As its panel and end toast say it: "0 of 1 created" is failed, not done.
      outcome: runOutcome({ ...run, totals: changeSetTotals(totals, run.id) }),
      path: `${notifications.path(run.kind)}?run=${run.id}`,
      // A run listed on the page of the organization it wrote into (from another) does not name that page.
      organizationName: run.organizationId === query.organizationId ? run.organizationName : '',
    }));
  }

  /** How many of the user's runs are queued or running. */
  activeCount(user: SessionUser): Promise<number> {
    return this.deps.repository.activeCount(user.id, [...this.kind.kinds]);
  }

  /** Deletes finished runs (of every tool, with their items) created before `before`. */
  pruneFinished(before: Date): Promise<number> {
    return this.deps.repository.deleteFinishedBefore(before);
  }
}
