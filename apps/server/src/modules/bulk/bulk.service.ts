import {
  BULK_ITEM_LIMIT,
  BULK_MESSAGES,
  BULK_RUN_KINDS,
  BULK_RUN_LABELS,
  bulkRunItemSchema,
  bulkRunSchema,
  userMay,
  PATHS,
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
  type SessionUser,
  type TestTemplate,
  type WorkNotification,
} from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { storedInput, toStoredInput } from './bulk-input.js';
import { mapPool } from '../../core/map-pool.js';
import { platformFailure } from '../../core/change-sets/handlers.js';
import { changeSetProblems, changeSetTotals } from '../../core/change-sets/summaries.js';
import { findDuplicates, inventory, planCells } from './bulk-plan.js';
import { endRun, sendChangeSetJob } from '../../core/change-sets/job.js';
import { assertUndoable, startUndo } from '../../core/change-sets/undo.js';
import type {
  ChangeItemRow,
  ChangeSetRepository,
  ChangeSetRow,
  ItemTotals,
} from '../../core/change-sets/repository.js';

/** The kinds the bulk-operations screens show together. */
const VISIBLE_KINDS: Record<'tests' | 'agents' | 'labels' | 'users', BulkRunKind[]> = {
  tests: ['tests', 'undo-tests'],
  agents: ['agents'],
  labels: ['labels'],
  users: ['users'],
};

const BULK_RUN_KINDS_ALL = [...BULK_RUN_KINDS];
const NOT_A_BULK_RUN = "No such bulk run: that id is another tool's change (a restore or an alerts migration).";
const isBulkKind = (kind: string): kind is BulkRunKind => (BULK_RUN_KINDS_ALL as string[]).includes(kind);

const itemFields = bulkRunItemSchema.pick({ action: true, status: true });
const runFields = bulkRunSchema.pick({ kind: true, status: true });

function itemToApi(item: ChangeItemRow): BulkRunItem {
  return {
    id: item.id,
    position: item.position,
    ...itemFields.parse(item),
    templateIndex: item.templateIndex,
    aid: item.aid,
    accountGroupName: item.accountGroupName,
    subject: item.subject,
    resultId: item.resultId,
    note: item.note,
    error: item.error,
  };
}

function summaryToApi(row: ChangeSetRow & { requestedBy: string }, totals: ItemTotals[]): BulkRunSummary {
  return {
    id: row.id,
    ...runFields.parse(row),
    requestedBy: row.requestedBy,
    organizationName: row.organizationName,
    accountGroups: storedInput(row).accountGroups,
    error: row.error,
    totals: changeSetTotals(totals, row.id),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    executionTimeMs:
      row.startedAt && row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.startedAt.getTime()) : null,
    undoOf: row.undoOf,
    undoneBy: row.undoneBy,
  };
}

/** Every account group a request touches. */
function aidsOf(request: CreateBulkRun): string[] {
  switch (request.kind) {
    case 'agents':
      return request.agents.map((agent) => agent.aid);
    case 'labels':
      return request.targets.map((target) => target.aid);
    case 'tests':
    case 'users':
      return request.accountGroups.map((group) => group.aid);
  }
}

export interface BulkDependencies {
  repository: ChangeSetRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  customer: CustomerService;
}

/**
 * Bulk operations, the requests' side: reads that help the user choose (agents, tests, roles,
 * duplicate agents, the plan), and runs: start, undo, list, read. The runs themselves are carried
 * out by the job (bulk-run.job.ts).
 */
export class BulkService {
  constructor(private readonly deps: BulkDependencies) {}

  private session(token: string) {
    return this.deps.platform.as({ token });
  }

  agents(token: string, groups: BulkAccountGroup[]): Promise<BulkAgentsResponse> {
    return readForCustomer(async () => {
      const found = await inventory(this.session(token), groups, { tests: false, agents: true });
      return { groups: found.map(({ group, agents, error }) => ({ ...group, agents, error })) };
    });
  }

  tests(token: string, groups: BulkAccountGroup[]): Promise<BulkTestsList> {
    return readForCustomer(async () => {
      const found = await inventory(this.session(token), groups, { tests: true, agents: false });
      return { groups: found.map(({ group, tests, error }) => ({ ...group, tests, error })) };
    });
  }

  roles(token: string): Promise<{ roles: { roleId: string; name: string }[] }> {
    return readForCustomer(async () => {
      const roles = await this.session(token).roles.list();
      return { roles: roles.map((role) => ({ roleId: role.roleId, name: role.name })) };
    });
  }

  plan(token: string, groups: BulkAccountGroup[], templates: TestTemplate[]): Promise<BulkTestsPlan> {
    this.checkSize(groups.length * templates.length);
    return readForCustomer(async () => {
      const found = await inventory(this.session(token), groups, { tests: true, agents: true });
      return { cells: planCells(templates, found) };
    });
  }

  scanDuplicates(token: string, groups: BulkAccountGroup[]): Promise<DuplicateScan> {
    return readForCustomer(async () => {
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

  /**
   * Starts a run: the account groups are checked against the token's own and named as the platform
   * names them, the token is sealed with the run, and the job is queued.
   */
  async create(user: SessionUser, request: CreateBulkRun): Promise<BulkRun> {
    if (request.kind === 'tests') this.checkSize(request.accountGroups.length * request.templates.length);
    const scope = await this.deps.customer.scope(request.token, request.organization.id, aidsOf(request));
    const named = <T extends BulkAccountGroup>(rows: T[]): T[] =>
      rows.map((row) => ({ ...row, accountGroupName: scope.accountGroupName(row.aid) }));
    const input: CreateBulkRun =
      request.kind === 'agents'
        ? { ...request, agents: named(request.agents) }
        : request.kind === 'labels'
          ? { ...request, targets: named(request.targets) }
          : { ...request, accountGroups: named(request.accountGroups) };
    const row = await this.deps.repository.insertRun(
      {
        userId: user.id,
        kind: input.kind,
        organizationId: scope.organization.id,
        organizationName: scope.organization.name,
        input: toStoredInput(input),
      },
      (tx) => this.deps.tokens.seal(request.token, tx),
    );
    await this.enqueueOrEnd(row);
    return this.get(user, row.id);
  }

  /** Undo of a tests run: deletes exactly the tests that run created, as a run of its own. */
  async undo(user: SessionUser, runId: string, token: string): Promise<BulkRun> {
    const source = await this.visible(user, runId);
    if (source.kind !== 'tests') throw new AppError(400, 'not_undoable', 'Only a bulk tests run can be undone.');
    assertUndoable(source, 'run');
    const created = (await this.deps.repository.items(runId)).filter(
      (item) => item.action === 'create-test' && item.status === 'done' && item.resultId,
    );
    if (created.length === 0) throw new AppError(400, 'nothing_to_undo', 'This run created no tests.');
    const { accountGroups } = storedInput(source);
    const row = await startUndo({
      ...this.deps,
      token,
      userId: user.id,
      source,
      wroteInto: { accountGroups: accountGroups.map((group) => group.aid) },
      kind: 'undo-tests',
      input: { accountGroups },
      noun: 'run',
    });
    return this.get(user, row.id);
  }

  private async enqueueOrEnd(row: ChangeSetRow): Promise<void> {
    try {
      await sendChangeSetJob(this.deps.queue, this.deps.repository, row.id);
    } catch (error) {
      await endRun(this.deps.repository, this.deps.tokens, row, 'The run could not be queued. Start it again.');
      throw error;
    }
  }

  /** Deletes finished runs (and their items) created before `before`. */
  pruneFinished(before: Date): Promise<number> {
    return this.deps.repository.deleteFinishedBefore(before);
  }

  private async visible(user: SessionUser, id: string): Promise<ChangeSetRow> {
    const row = await this.deps.repository.findRun(id);
    if (!row || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'run_not_found', 'No such bulk run');
    // The change sets share one table: a restore's or a migration's id is no bulk run.
    if (!isBulkKind(row.kind)) throw new AppError(404, 'run_not_found', NOT_A_BULK_RUN);
    return row;
  }

  /** The user's runs that ended after `since` having failed, or with operations that failed. */
  async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
    const rows = await this.deps.repository.problemsSince(user.id, since, limit, BULK_RUN_KINDS_ALL);
    const totals = await this.deps.repository.totals(rows.map((row) => row.id));
    return changeSetProblems(
      rows,
      totals,
      (kind) => BULK_RUN_LABELS[runFields.shape.kind.parse(kind)],
      "the run's results",
    ).map(({ kind, ...problem }) => ({
      ...problem,
      source: 'bulk' as const,
      path: VISIBLE_KINDS.tests.includes(runFields.shape.kind.parse(kind)) ? PATHS.bulkTests : PATHS.bulkOperations,
    }));
  }

  /** How many of the user's runs are queued or running. */
  activeCount(user: SessionUser): Promise<number> {
    return this.deps.repository.activeCount(user.id, BULK_RUN_KINDS_ALL);
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
    const input = storedInput(row);
    return {
      ...summaryToApi({ ...row, requestedBy }, totals),
      templates: input.kind === 'tests' ? input.templates : [],
      items: items.map(itemToApi),
    };
  }
}
