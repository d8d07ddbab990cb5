import {
  BULK_ITEM_LIMIT,
  BULK_MESSAGES,
  testTemplateSchema,
  type BulkAccountGroup,
  type BulkAgentsResponse,
  type BulkRun,
  type BulkRunItem,
  type BulkRunKind,
  type BulkRunSummary,
  type BulkTestsList,
  type BulkTestsPlan,
  type CreateBulkRun,
  type DuplicateScan,
  type ReportAccountGroup,
  type SessionUser,
  type TestTemplate,
} from '@ce/contract';
import { PlatformError, type PlatformClient, type PlatformSession } from '@ce/platform-client';
import { AppError } from '../../platform/errors.js';
import { LEASE_MS, whileLeased } from '../../platform/lease.js';
import type { JobQueue } from '../../platform/queue.js';
import type { SealedTokens } from '../../platform/sealed-tokens.js';
import type { UsageService } from '../usage/usage.service.js';
import { createBody, findDuplicates, inventory, mapPool, planCells, platformFailure, testTypeOf } from './bulk-plan.js';
import type { BulkItemRow, BulkRepository, BulkRunRow, ItemTotals, NewBulkItem } from './bulk.repository.js';

export const BULK_RUN_QUEUE = 'bulk.run';
export const BULK_RECOVERY_QUEUE = 'bulk.recover';
/** Operations in flight at once for one run; the organization's limiter decides the pace. */
const RUN_CONCURRENCY = 6;
const TOKEN_REJECTED = 'Not attempted: the platform rejected the token';
/** A queued run whose job is gone is sent again once it has waited this long. */
const LOST_JOB_GRACE_MS = 2 * 60_000;
const JOB_GONE_STATES = new Set(['completed', 'cancelled', 'failed']);
const STOPPED = Symbol('stopped');

/** The kinds the bulk-operations screens show together. */
const VISIBLE_KINDS: Record<'tests' | 'agents' | 'labels' | 'users', BulkRunKind[]> = {
  tests: ['tests', 'undo-tests'],
  agents: ['agents'],
  labels: ['labels'],
  users: ['users'],
};

function asAppError(error: unknown): unknown {
  if (error instanceof PlatformError && error.status === 401)
    return new AppError(401, 'invalid_platform_token', BULK_MESSAGES.invalidToken);
  if (error instanceof PlatformError && error.status === 403)
    return new AppError(403, 'platform_forbidden', 'Forbidden - insufficient permissions');
  if (error instanceof PlatformError) return new AppError(502, 'platform_error', error.message);
  return error;
}

function totalsOf(rows: ItemTotals[], runId: string): BulkRun['totals'] {
  const count = (status: string) =>
    rows.filter((row) => row.runId === runId && row.status === status).reduce((sum, row) => sum + row.count, 0);
  const pending = count('pending') + count('running');
  const done = count('done');
  const skipped = count('skipped');
  const failed = count('failed');
  return { total: pending + done + skipped + failed, pending, done, skipped, failed };
}

function itemToApi(item: BulkItemRow): BulkRunItem {
  return {
    id: item.id,
    position: item.position,
    action: item.action as BulkRunItem['action'],
    templateIndex: item.templateIndex,
    aid: item.aid,
    accountGroupName: item.accountGroupName,
    subject: item.subject,
    status: item.status as BulkRunItem['status'],
    resultId: item.resultId,
    note: item.note,
    error: item.error,
  };
}

function summaryToApi(row: BulkRunRow & { requestedBy: string }, totals: ItemTotals[]): BulkRunSummary {
  const input = row.input as { accountGroups?: BulkAccountGroup[] };
  return {
    id: row.id,
    kind: row.kind as BulkRunKind,
    status: row.status as BulkRun['status'],
    requestedBy: row.requestedBy,
    organizationName: row.organizationName,
    accountGroups: input.accountGroups ?? [],
    error: row.error,
    totals: totalsOf(totals, row.id),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    executionTimeMs:
      row.startedAt && row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.startedAt.getTime()) : null,
    undoOf: row.undoOf,
    undoneBy: row.undoneBy,
  };
}

export interface BulkDependencies {
  repository: BulkRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  usage: UsageService;
  logger: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/**
 * Bulk operations: reads that help the user choose (account groups, agents, tests, roles, duplicate
 * agents, the plan), and runs, which are server jobs with one item per platform operation.
 */
export class BulkService {
  private stopping = false;
  private readonly active = new Set<Promise<void>>();

  constructor(private readonly deps: BulkDependencies) {}

  private session(token: string, organizationId?: string): PlatformSession {
    return this.deps.platform.as({ token, organizationId });
  }

  private async read<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw asAppError(error);
    }
  }

  accountGroups(token: string): Promise<ReportAccountGroup[]> {
    return this.read(async () => {
      const groups = await this.session(token).accountGroups.list();
      return groups.map((group) => ({
        aid: group.aid,
        accountGroupName: group.accountGroupName,
        organizationName: group.organizationName ?? 'N/A',
        organizationId: group.orgId ?? group.organizationName ?? 'unknown',
      }));
    });
  }

  agents(token: string, groups: BulkAccountGroup[]): Promise<BulkAgentsResponse> {
    return this.read(async () => {
      const found = await inventory(this.session(token), groups, { tests: false, agents: true });
      return {
        groups: found.map(({ group, agents, error }) => ({ ...group, agents, error })),
      };
    });
  }

  tests(token: string, groups: BulkAccountGroup[]): Promise<BulkTestsList> {
    return this.read(async () => {
      const found = await inventory(this.session(token), groups, { tests: true, agents: false });
      return { groups: found.map(({ group, tests, error }) => ({ ...group, tests, error })) };
    });
  }

  roles(token: string): Promise<{ roles: { roleId: string; name: string }[] }> {
    return this.read(async () => {
      const roles = await this.session(token).roles.list();
      return { roles: roles.map((role) => ({ roleId: role.roleId, name: role.name })) };
    });
  }

  plan(token: string, groups: BulkAccountGroup[], templates: TestTemplate[]): Promise<BulkTestsPlan> {
    this.checkSize(groups.length * templates.length);
    return this.read(async () => {
      const found = await inventory(this.session(token), groups, { tests: true, agents: true });
      return { cells: planCells(templates, found) };
    });
  }

  scanDuplicates(token: string, groups: BulkAccountGroup[]): Promise<DuplicateScan> {
    return this.read(async () => {
      const session = this.session(token);
      const errors: DuplicateScan['errors'] = [];
      const scanned = await mapPool(groups, 4, async (group) => {
        try {
          return { group, agents: await session.agents.list({ aid: group.aid, agentTypes: ['enterprise'] }) };
        } catch (error) {
          if (error instanceof PlatformError && error.status === 401) throw error;
          errors.push({ ...group, error: platformFailure(error, BULK_MESSAGES.agentsFailed) });
          return { group, agents: [] };
        }
      });
      return { ...findDuplicates(scanned), errors };
    });
  }

  private checkSize(items: number): void {
    if (items > BULK_ITEM_LIMIT)
      throw new AppError(
        400,
        'too_many_items',
        `One run can do at most ${BULK_ITEM_LIMIT} operations; this asks ${items}.`,
      );
  }

  // -------------------------------------------------------------------------------------------
  // Runs

  /**
   * The request with the organization and account-group names the platform gives them: the browser
   * says which groups (ids), the token's own account groups say what they are called. A group the
   * token cannot see is refused.
   */
  private async withPlatformNames(input: CreateBulkRun): Promise<CreateBulkRun> {
    const visible = (await this.accountGroups(input.token)).filter(
      (group) => group.organizationId === input.organization.id,
    );
    const organizationName = visible[0]?.organizationName;
    if (organizationName === undefined)
      throw new AppError(400, 'unknown_organization', 'This token does not belong to the selected organization.');
    const names = new Map(visible.map((group) => [group.aid, group.accountGroupName]));
    const unknown = new Set<string>();
    const named = <T extends BulkAccountGroup>(rows: T[]): T[] =>
      rows.map((row) => {
        const name = names.get(row.aid);
        if (name === undefined) unknown.add(row.aid);
        return { ...row, accountGroupName: name ?? row.accountGroupName };
      });
    const organization = { id: input.organization.id, name: organizationName };
    const renamed: CreateBulkRun =
      input.kind === 'agents'
        ? { ...input, organization, agents: named(input.agents) }
        : input.kind === 'labels'
          ? { ...input, organization, targets: named(input.targets) }
          : { ...input, organization, accountGroups: named(input.accountGroups) };
    if (unknown.size > 0)
      throw new AppError(
        400,
        'unknown_account_group',
        `This token cannot see the account group${unknown.size === 1 ? '' : 's'} ${[...unknown].join(', ')}.`,
      );
    return renamed;
  }

  async create(user: SessionUser, request: CreateBulkRun): Promise<BulkRun> {
    if (request.kind === 'tests') this.checkSize(request.accountGroups.length * request.templates.length);
    const input = await this.withPlatformNames(request);
    const { token, organization, ...rest } = input;
    const stored: Record<string, unknown> = { ...rest };
    if (input.kind === 'agents') {
      delete stored.confirmation;
      stored.accountGroups = uniqueGroups(input.agents);
    }
    if (input.kind === 'labels') stored.accountGroups = uniqueGroups(input.targets);
    const row = await this.deps.repository.insertRun(
      {
        userId: user.id,
        kind: input.kind,
        organizationId: organization.id,
        organizationName: organization.name,
        input: stored,
      },
      (tx) => this.deps.tokens.seal(token, tx),
    );
    await this.enqueueOrEnd(row);
    return this.get(user, row.id);
  }

  /** Undo of a tests run: deletes exactly the tests that run created, as a run of its own. */
  async undo(user: SessionUser, runId: string, token: string): Promise<BulkRun> {
    const source = await this.visible(user, runId);
    if (source.kind !== 'tests') throw new AppError(400, 'not_undoable', 'Only a bulk tests run can be undone.');
    if (source.status !== 'done' && source.status !== 'failed')
      throw new AppError(409, 'run_in_progress', 'Wait for the run to finish before undoing it.');
    if (source.undoneBy) throw new AppError(409, 'already_undone', 'This run has been undone already.');
    const created = (await this.deps.repository.items(runId)).filter(
      (item) => item.action === 'create-test' && item.status === 'done' && item.resultId,
    );
    if (created.length === 0) throw new AppError(400, 'nothing_to_undo', 'This run created no tests.');
    const input = source.input as { accountGroups?: BulkAccountGroup[] };
    const row = await this.deps.repository.insertRun(
      {
        userId: user.id,
        kind: 'undo-tests',
        organizationId: source.organizationId,
        organizationName: source.organizationName,
        input: { sourceRunId: runId, accountGroups: input.accountGroups ?? [] },
        undoOf: runId,
      },
      (tx) => this.deps.tokens.seal(token, tx),
    );
    if (!(await this.deps.repository.markUndone(runId, row.id))) {
      await this.end(row, 'This run has been undone already.');
      throw new AppError(409, 'already_undone', 'This run has been undone already.');
    }
    await this.enqueueOrEnd(row);
    return this.get(user, row.id);
  }

  private async enqueue(runId: string): Promise<void> {
    const jobId = await this.deps.queue.send(
      BULK_RUN_QUEUE,
      { runId },
      { retryLimit: 2, retryDelay: 5, expireInSeconds: 6 * 60 * 60 },
    );
    await this.deps.repository.updateRun(runId, { jobId });
  }

  private async enqueueOrEnd(row: BulkRunRow): Promise<void> {
    try {
      await this.enqueue(row.id);
    } catch (error) {
      await this.end(row, 'The run could not be queued. Start it again.');
      throw error;
    }
  }

  /** Ends a run that cannot go on: failed with `reason`, its token erased. */
  private async end(row: Pick<BulkRunRow, 'id' | 'tokenId'>, reason: string): Promise<void> {
    await this.deps.repository.failPending(row.id, reason, new Date());
    await this.deps.repository.updateRun(row.id, {
      status: 'failed',
      error: reason,
      finishedAt: new Date(),
      leaseUntil: null,
    });
    await this.deps.tokens.erase(row.tokenId);
  }

  /**
   * Finds runs that lost their worker (a lapsed lease) or their queue job and sends them back to the
   * queue, or ends them when their token is gone. `all`: every unfinished run is an orphan (the
   * embedded database belongs to this one process).
   */
  async recoverOrphans(all: boolean, now = new Date()): Promise<number> {
    const { repository, queue } = this.deps;
    const candidates = await repository.orphans(now, all);
    if (!all) {
      for (const row of await repository.waiting(new Date(now.getTime() - LOST_JOB_GRACE_MS))) {
        const state = row.jobId ? await queue.jobState(BULK_RUN_QUEUE, row.jobId) : null;
        if (state === null || JOB_GONE_STATES.has(state)) candidates.push(row);
      }
    }
    for (const row of candidates) {
      if ((await this.deps.tokens.open(row.tokenId)) === null) {
        await this.end(row, 'The token is no longer available: start the run again.');
        continue;
      }
      if (all) await repository.updateRun(row.id, { leaseUntil: null });
      await this.enqueue(row.id);
    }
    if (candidates.length)
      this.deps.logger.info({ count: candidates.length }, 'bulk runs without a worker sent back to the queue');
    return candidates.length;
  }

  /** Deletes finished runs (and their items) created before `before`. */
  pruneFinished(before: Date): Promise<number> {
    return this.deps.repository.deleteFinishedBefore(before);
  }

  private async visible(user: SessionUser, id: string): Promise<BulkRunRow> {
    const row = await this.deps.repository.findRun(id);
    if (!row || (row.userId !== user.id && user.role !== 'Super User'))
      throw new AppError(404, 'run_not_found', 'No such bulk run');
    return row;
  }

  async list(user: SessionUser, view: keyof typeof VISIBLE_KINDS): Promise<BulkRunSummary[]> {
    const rows = await this.deps.repository.listRuns({ userId: user.id, kinds: VISIBLE_KINDS[view], limit: 50 });
    const totals = await this.deps.repository.totals(rows.map((row) => row.id));
    return rows.map((row) => summaryToApi(row, totals));
  }

  async get(user: SessionUser, id: string): Promise<BulkRun> {
    const row = await this.visible(user, id);
    const [items, totals, requestedBy] = await Promise.all([
      this.deps.repository.items(id),
      this.deps.repository.totals([id]),
      this.deps.repository.requesterEmail(row.userId),
    ]);
    const input = row.input as { templates?: unknown[] };
    return {
      ...summaryToApi({ ...row, requestedBy }, totals),
      templates: (input.templates ?? []).map((template) => testTemplateSchema.parse(template)),
      items: items.map(itemToApi),
    };
  }

  // -------------------------------------------------------------------------------------------
  // The job

  /** Stops taking items: runs in progress stop after their in-flight calls and resume elsewhere. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.active]);
  }

  async run(runId: string): Promise<void> {
    if (this.stopping) return;
    const work = this.execute(runId);
    this.active.add(work);
    try {
      await work;
    } finally {
      this.active.delete(work);
    }
  }

  private async execute(runId: string): Promise<void> {
    const { repository } = this.deps;
    const run = await repository.claim(runId, new Date(), LEASE_MS);
    if (!run) return;
    let finished = false;
    try {
      const outcome = await whileLeased(
        (until) => repository.renewLease(runId, until),
        () => this.carryOut(run),
      );
      if (outcome === STOPPED) return;
      finished = true;
      await repository.updateRun(runId, { status: 'done', finishedAt: new Date(), error: null });
    } catch (error) {
      finished = true;
      const known = asAppError(error);
      if (!(known instanceof AppError)) this.deps.logger.error({ err: error, runId }, 'bulk run failed');
      const message = known instanceof AppError ? known.message : 'The run stopped because of an internal error.';
      await repository.failPending(runId, message, new Date());
      await repository.updateRun(runId, { status: 'failed', finishedAt: new Date(), error: message });
    } finally {
      if (finished)
        await this.recordUsage(run).catch((error: unknown) =>
          this.deps.logger.error({ err: error, runId }, 'bulk run usage not recorded'),
        );
      // A finished run forgets the token; a stopped one keeps it (sealed) for the worker that resumes it.
      if (finished) await this.deps.tokens.erase(run.tokenId);
      await repository.updateRun(runId, { leaseUntil: null });
    }
  }

  /** Plans a claimed run once, then works through its items. */
  private async carryOut(run: BulkRunRow): Promise<typeof STOPPED | void> {
    const token = await this.deps.tokens.open(run.tokenId);
    if (token === null) throw new AppError(400, 'token_gone', 'The token is no longer available.');
    const session = this.session(token, run.organizationId);
    if (!run.planned) await this.deps.repository.plan(run.id, await this.planItems(run, session));
    return this.perform(run, session);
  }

  private async recordUsage(run: BulkRunRow): Promise<void> {
    if (run.kind !== 'tests' && run.kind !== 'undo-tests') return;
    const { done } = totalsOf(await this.deps.repository.totals([run.id]), run.id);
    if (done > 0)
      await this.deps.usage.record({
        tool: 'tests-created',
        userId: run.userId,
        quantity: run.kind === 'tests' ? done : -done,
      });
  }

  /** Works through the items not done yet; a 401 ends the run, anything else fails one item. */
  private async perform(run: BulkRunRow, session: PlatformSession): Promise<typeof STOPPED | void> {
    const { repository } = this.deps;
    const items = await repository.items(run.id);
    // An item sent but not answered before a crash: ask the platform whether it happened.
    for (const item of items.filter((candidate) => candidate.status === 'running')) {
      const recovered = await reconcile(session, item);
      await repository.updateItem(item.id, recovered ?? { status: 'pending', startedAt: null });
      if (!recovered) item.status = 'pending';
    }
    let rejected = false;
    let left = 0;
    await mapPool(
      items.filter((item) => item.status === 'pending'),
      RUN_CONCURRENCY,
      async (item) => {
        if (rejected || this.stopping) {
          left += 1;
          return;
        }
        await repository.updateItem(item.id, { status: 'running', startedAt: new Date() });
        try {
          const result = await execute(session, item);
          await repository.updateItem(item.id, { status: 'done', finishedAt: new Date(), error: null, ...result });
        } catch (error) {
          if (error instanceof PlatformError && error.status === 401) {
            rejected = true;
            await repository.updateItem(item.id, { status: 'pending', startedAt: null });
            return;
          }
          await repository.updateItem(item.id, {
            status: 'failed',
            finishedAt: new Date(),
            error: platformFailure(error, failureFallback(item.action)),
          });
        }
      },
    );
    if (rejected) {
      await repository.failPending(run.id, TOKEN_REJECTED, new Date());
      throw new AppError(401, 'invalid_platform_token', BULK_MESSAGES.invalidToken);
    }
    if (left > 0) return STOPPED;
  }

  /** The items of a run, decided once by its first worker. */
  private async planItems(run: BulkRunRow, session: PlatformSession): Promise<NewBulkItem[]> {
    const input = run.input as StoredInput;
    const items: NewBulkItem[] = [];
    const add = (item: Omit<NewBulkItem, 'position'>) => items.push({ ...item, position: items.length });
    switch (run.kind) {
      case 'tests': {
        const { templates = [], skipExisting = true } = input;
        const found = await inventory(session, input.accountGroups, { tests: true, agents: true });
        for (const cell of planCells(templates, found)) {
          const template = templates[cell.templateIndex] as TestTemplate;
          const base = {
            action: 'create-test',
            templateIndex: cell.templateIndex,
            aid: cell.aid,
            accountGroupName: cell.accountGroupName,
            subject: cell.testName,
            payload: { type: template.testType, body: createBody(template, cell.agents) },
            note: cell.missingAgents.length ? `Not in this group: ${cell.missingAgents.join(', ')}` : null,
          };
          if (cell.action === 'exists' && skipExisting)
            add({ ...base, status: 'skipped', resultId: cell.existingTestId, note: 'Already exists' });
          else if (cell.action === 'blocked') add({ ...base, status: 'failed', error: cell.reason });
          else add(base);
        }
        break;
      }
      case 'undo-tests': {
        const source = await this.deps.repository.items(input.sourceRunId ?? '');
        for (const item of source) {
          if (item.action !== 'create-test' || item.status !== 'done' || !item.resultId) continue;
          add({
            action: 'delete-test',
            templateIndex: item.templateIndex,
            aid: item.aid,
            accountGroupName: item.accountGroupName,
            subject: item.subject,
            payload: { type: (item.payload as { type: string }).type, testId: item.resultId },
            resultId: item.resultId,
          });
        }
        break;
      }
      case 'agents': {
        const { agents = [] } = input;
        for (const agent of agents) {
          add({
            action: 'delete-agent',
            templateIndex: null,
            aid: agent.aid,
            accountGroupName: agent.accountGroupName,
            subject: agent.agentName,
            payload: { agentId: agent.agentId },
            resultId: agent.agentId,
          });
        }
        break;
      }
      case 'labels': {
        const { tag, targets = [] } = input;
        if (!tag) throw new AppError(400, 'no_label', 'The run has no label');
        for (const target of targets) {
          add({
            action: 'label-tests',
            templateIndex: null,
            aid: target.aid,
            accountGroupName: target.accountGroupName,
            subject: `${tag.key}: ${tag.value}`,
            payload: { tag, testIds: target.testIds },
          });
        }
        break;
      }
      case 'users': {
        const { invitees = [], roleId = '', accountGroups } = input;
        const existing = new Map((await session.users.list()).map((user) => [user.email.toLowerCase(), user.uid]));
        const first = accountGroups[0] as BulkAccountGroup;
        for (const invitee of invitees) {
          const base = {
            action: 'invite-user',
            templateIndex: null,
            aid: first.aid,
            accountGroupName: accountGroups.map((group) => group.accountGroupName).join(', '),
            subject: invitee.email,
            payload: { ...invitee, roleId, aids: accountGroups.map((group) => group.aid) },
          };
          const uid = existing.get(invitee.email);
          if (uid) add({ ...base, status: 'skipped', resultId: uid, note: 'Already a user of this organization' });
          else add(base);
        }
        break;
      }
      default:
        throw new AppError(400, 'unknown_run', `Unknown bulk run kind ${run.kind}`);
    }
    return items;
  }
}

/** A run's input as stored: the validated request without the token (see `create`). */
type Stored<K extends CreateBulkRun['kind']> = Partial<
  Omit<Extract<CreateBulkRun, { kind: K }>, 'kind' | 'token' | 'organization'>
>;
type StoredInput = Stored<'tests'> &
  Stored<'agents'> &
  Stored<'labels'> &
  Stored<'users'> & { accountGroups: BulkAccountGroup[]; sourceRunId?: string };

function uniqueGroups(rows: BulkAccountGroup[]): BulkAccountGroup[] {
  const byAid = new Map(rows.map((row) => [row.aid, { aid: row.aid, accountGroupName: row.accountGroupName }]));
  return [...byAid.values()];
}

function failureFallback(action: string): string {
  switch (action) {
    case 'create-test':
      return BULK_MESSAGES.createFailed;
    case 'delete-test':
      return 'Failed to delete test';
    case 'delete-agent':
      return 'Failed to delete agent';
    case 'label-tests':
      return 'Failed to label tests';
    default:
      return 'Failed to invite user';
  }
}

type ItemResult = { resultId?: string | null; note?: string | null };

/** A deletion that answers 404 was done before (by an earlier attempt or by someone else). */
async function deleteOnce(id: string, remove: () => Promise<unknown>): Promise<ItemResult> {
  try {
    await remove();
    return { resultId: id, note: 'Deleted' };
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return { resultId: id, note: 'Already deleted' };
    throw error;
  }
}

/** Performs one item against the platform. */
async function execute(session: PlatformSession, item: BulkItemRow): Promise<ItemResult> {
  const payload = item.payload as Record<string, unknown>;
  switch (item.action) {
    case 'create-test': {
      const { type, body } = payload as { type: string; body: Parameters<PlatformSession['tests']['create']>[1] };
      const test = await session.tests.create(testTypeOf(type), body, item.aid);
      return { resultId: test.testId };
    }
    case 'delete-test': {
      const { type, testId } = payload as { type: string; testId: string };
      return deleteOnce(testId, () => session.tests.delete(testTypeOf(type), testId, item.aid));
    }
    case 'delete-agent': {
      const { agentId } = payload as { agentId: string };
      return deleteOnce(agentId, () => session.agents.delete(agentId, item.aid));
    }
    case 'label-tests': {
      const { tag, testIds } = payload as { tag: { key: string; value: string; color: string }; testIds: string[] };
      const existing = (await session.tags.list(item.aid)).find(
        (candidate) => candidate.key === tag.key && candidate.value === tag.value && candidate.objectType === 'test',
      );
      const target = existing ?? (await session.tags.create({ ...tag, objectType: 'test' }, item.aid));
      await session.tags.assign(
        target.id,
        testIds.map((id) => ({ id, type: 'test' })),
        item.aid,
      );
      return {
        resultId: target.id,
        note: `${existing ? 'Existing label' : 'New label'} on ${testIds.length} test${testIds.length === 1 ? '' : 's'}`,
      };
    }
    case 'invite-user': {
      const { email, name, roleId, aids } = payload as { email: string; name: string; roleId: string; aids: string[] };
      const user = await session.users.invite(
        {
          name: name || email.split('@')[0] || email,
          email,
          loginAccountGroupId: aids[0] ?? item.aid,
          accountGroupRoles: aids.map((aid) => ({ accountGroupId: aid, roleIds: [roleId] })),
        },
        item.aid,
      );
      return { resultId: user.uid, note: 'Invited' };
    }
    default:
      throw new AppError(400, 'unknown_action', `Unknown action ${item.action}`);
  }
}

/**
 * After a crash, whether an item that was sent took effect. Returns the finished item, or null
 * to send it again.
 */
async function reconcile(session: PlatformSession, item: BulkItemRow): Promise<Partial<BulkItemRow> | null> {
  const payload = item.payload as Record<string, unknown>;
  const recovered = (resultId: string | null): Partial<BulkItemRow> => ({
    status: 'done',
    resultId,
    finishedAt: new Date(),
    note: 'Confirmed after a restart',
    error: null,
  });
  switch (item.action) {
    case 'create-test': {
      const { type, body } = payload as { type: string; body: { testName: string } };
      const tests = await session.tests.listByType(testTypeOf(type), item.aid);
      const test = tests.find((candidate) => candidate.testName === body.testName);
      return test ? recovered(test.testId) : null;
    }
    case 'invite-user': {
      const users = await session.users.list();
      const user = users.find((candidate) => candidate.email.toLowerCase() === item.subject);
      return user ? recovered(user.uid) : null;
    }
    default:
      // Deletions answer 404 when repeated, and labelling is idempotent: sending again is safe.
      return null;
  }
}
