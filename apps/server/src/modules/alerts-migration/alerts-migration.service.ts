import {
  ALERTS_MIGRATION_MESSAGES,
  userMay,
  migrationRunSchema,
  type MigrationPlan,
  type MigrationRequest,
  type MigrationRules,
  type MigrationRun,
  type MigrationRunSummary,
  type SessionUser,
  type WorkNotification,
  PATHS,
} from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { endRun, sendChangeSetJob } from '../../core/change-sets/job.js';
import { startUndo } from '../../core/change-sets/undo.js';
import { changeItemToApi, changeSetProblems, changeSetTotals } from '../../core/change-sets/summaries.js';
import type { ChangeSetRepository, ChangeSetRow, ItemTotals } from '../../core/change-sets/repository.js';
import { AppError } from '../../core/errors.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import { resultsFile } from '../../report-kit/change-set-results.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { conditionInWords, notificationsInWords } from './describe.js';
import { MIGRATION_KINDS, migrationInput, resultRows } from './kinds.js';
import { changeItems, planItems, planMigration, plannedWrites, type MigrationInput } from './plan.js';
import { readSource } from './read.js';
import { testIdsOf } from './rule-plan.js';
import { writeProblems } from './write-access.js';

export interface AlertsMigrationDependencies {
  repository: ChangeSetRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  customer: CustomerService;
}

const runFields = migrationRunSchema.pick({ status: true });

/**
 * Alerts migration, the requests' side: the source's rules, the plan (read, never written), and
 * migrations as change sets (start, list, read, undo, results file). The change-set engine carries them out.
 */
export class AlertsMigrationService {
  constructor(private readonly deps: AlertsMigrationDependencies) {}

  /** The source group's alert rules as the table shows them, and its suppression windows. */
  async rules(request: { token: string; organization: { id: string }; aid: string }): Promise<MigrationRules> {
    const scope = await this.deps.customer.scope(request.token, request.organization.id, [request.aid]);
    return readForCustomer(async () => {
      const source = await readSource(this.deps.platform.as({ token: request.token }), request.aid, { windows: true });
      const testNames = new Map(source.tests.map((test) => [test.testId, test.testName]));
      return {
        accountGroupName: scope.accountGroupName(request.aid),
        rules: source.rules.map((rule) => ({
          ruleId: rule.ruleId,
          ruleName: rule.ruleName,
          alertType: rule.alertType ?? '',
          condition: conditionInWords(rule),
          severity: rule.severity ?? '',
          isDefault: rule.isDefault === true,
          tests: testIdsOf(rule).map((testId) => testNames.get(testId) ?? testId),
          notifications: notificationsInWords(rule),
        })),
        windows: source.windows.map((window) => {
          const covered = new Set((window.tests ?? []).map((test) => test.testId));
          return {
            windowId: window.alertSuppressionWindowId,
            name: window.name,
            ruleIds: source.rules
              .filter((rule) => testIdsOf(rule).some((testId) => covered.has(testId)))
              .map((rule) => rule.ruleId),
          };
        }),
      };
    });
  }

  /** Checks a request's groups against its tokens and names them as the platform does. */
  private async input(request: MigrationRequest): Promise<{
    input: MigrationInput;
    organization: { id: string; name: string };
    targetOrganizationId: string | null;
  }> {
    const cross = request.targetOrganization && request.targetOrganization.organization.id !== request.organization.id;
    const source = await this.deps.customer.scope(
      request.token,
      request.organization.id,
      cross ? [request.aid] : [request.aid, ...request.targets.map((target) => target.aid)],
    );
    const targetScope = cross
      ? await this.deps.customer.scope(
          request.targetOrganization?.token ?? '',
          request.targetOrganization?.organization.id ?? '',
          request.targets.map((target) => target.aid),
        )
      : source;
    if (!cross && request.targets.some((target) => target.aid === request.aid))
      throw new AppError(400, 'target_is_source', ALERTS_MIGRATION_MESSAGES.targetIsSource);
    const targets = [...new Set(request.targets.map((target) => target.aid))].map((aid) => ({
      aid,
      accountGroupName: targetScope.accountGroupName(aid),
    }));
    const sourceGroup = { aid: request.aid, accountGroupName: source.accountGroupName(request.aid) };
    return {
      input: {
        ...sourceGroup,
        ruleIds: [...new Set(request.ruleIds)],
        targets,
        crossOrganization: Boolean(cross),
        targetOrganizationName: cross ? targetScope.organization.name : null,
        options: request.options,
        decisions: request.decisions,
        accountGroups: [sourceGroup, ...targets],
      },
      organization: source.organization,
      targetOrganizationId: cross ? targetScope.organization.id : null,
    };
  }

  private sessions(request: MigrationRequest) {
    return {
      source: this.deps.platform.as({ token: request.token }),
      target: request.targetOrganization ? this.deps.platform.as({ token: request.targetOrganization.token }) : null,
    };
  }

  /**
   * What the migration would do, rule by rule and target by target, and whether its tokens may do it;
   * nothing is written.
   */
  async plan(request: MigrationRequest): Promise<MigrationPlan> {
    const { input } = await this.input(request);
    return readForCustomer(async () => {
      const sessions = this.sessions(request);
      const planned = await planMigration(input, sessions);
      const items = planItems(planned, input);
      const totals: Record<string, number> = {};
      for (const item of items) totals[item.status] = (totals[item.status] ?? 0) + 1;
      const writes = changeItems(planned, input).filter((item) => !item.status);
      return { items, totals, writes: writes.length, problems: await writeProblems(plannedWrites(writes, sessions)) };
    });
  }

  /** Starts a migration: the tokens are sealed with it, the job plans it again and carries it out. */
  async create(user: SessionUser, request: MigrationRequest): Promise<MigrationRun> {
    const { input, organization, targetOrganizationId } = await this.input(request);
    const target = request.targetOrganization;
    const row = await this.deps.repository.insertRun(
      {
        userId: user.id,
        kind: 'alerts-migration',
        organizationId: organization.id,
        organizationName: organization.name,
        targetOrganizationId,
        input: input as unknown as Record<string, unknown>,
      },
      (tx) => this.deps.tokens.seal(request.token, tx),
      targetOrganizationId && target ? (tx) => this.deps.tokens.seal(target.token, tx) : undefined,
    );
    await this.enqueueOrEnd(row);
    return this.get(user, row.id);
  }

  /** Undoes a finished migration as a change set of its own: deletes what it created, restores the rest. */
  async undo(user: SessionUser, runId: string, tokens: { token: string; targetToken?: string }): Promise<MigrationRun> {
    const source = await this.visible(user, runId);
    if (source.kind !== 'alerts-migration')
      throw new AppError(400, 'not_undoable', 'Only an alerts migration can be undone here.');
    if (source.targetOrganizationId && !tokens.targetToken)
      throw new AppError(400, 'target_token_required', ALERTS_MIGRATION_MESSAGES.targetTokenRequired);
    const done = (await this.deps.repository.items(runId)).filter((item) => item.status === 'done');
    if (done.length === 0) throw new AppError(400, 'nothing_to_undo', ALERTS_MIGRATION_MESSAGES.nothingToUndo);
    const input = migrationInput(source);
    const targets = input.targets.map((target) => target.aid);
    const row = await startUndo({
      ...this.deps,
      ...tokens,
      userId: user.id,
      source,
      wroteInto: source.targetOrganizationId
        ? {
            accountGroups: [input.aid],
            target: { organizationName: input.targetOrganizationName, accountGroups: targets },
          }
        : { accountGroups: [input.aid, ...targets] },
      kind: 'undo-alerts-migration',
      input,
      noun: 'migration',
    });
    return this.get(user, row.id);
  }

  private async enqueueOrEnd(row: ChangeSetRow): Promise<void> {
    try {
      await sendChangeSetJob(this.deps.queue, this.deps.repository, row.id);
    } catch (error) {
      await endRun(this.deps.repository, this.deps.tokens, row, 'The migration could not be queued. Start it again.');
      throw error;
    }
  }

  private async visible(user: SessionUser, id: string): Promise<ChangeSetRow> {
    const row = await this.deps.repository.findRun(id);
    if (!row || !MIGRATION_KINDS.includes(row.kind) || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'migration_not_found', 'No such alerts migration');
    return row;
  }

  private summary(row: ChangeSetRow & { requestedBy: string }, totals: ItemTotals[]): MigrationRunSummary {
    const input = migrationInput(row);
    return {
      id: row.id,
      kind: row.kind,
      ...runFields.parse(row),
      requestedBy: row.requestedBy,
      organizationName: row.organizationName,
      targetOrganizationName: input.targetOrganizationName,
      sourceAccountGroupName: input.accountGroupName,
      mode: input.options.mode,
      error: row.error,
      totals: changeSetTotals(totals, row.id),
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      undoOf: row.undoOf,
      undoneBy: row.undoneBy,
    };
  }

  async list(user: SessionUser): Promise<MigrationRunSummary[]> {
    const rows = await this.deps.repository.listRuns({ userId: user.id, kinds: MIGRATION_KINDS, limit: 50 });
    const totals = await this.deps.repository.totals(rows.map((row) => row.id));
    return rows.map((row) => this.summary(row, totals));
  }

  async get(user: SessionUser, id: string): Promise<MigrationRun> {
    const row = await this.visible(user, id);
    const [items, totals, requestedBy] = await Promise.all([
      this.deps.repository.items(id),
      this.deps.repository.totals([id]),
      this.deps.repository.requesterEmail(row.userId),
    ]);
    return { ...this.summary({ ...row, requestedBy }, totals), items: items.map(changeItemToApi) };
  }

  /** The results file of a migration (or its undo): XLSX or CSV, text formula-safe. */
  async results(user: SessionUser, id: string, format: 'xlsx' | 'csv') {
    const row = await this.visible(user, id);
    const rows = resultRows(await this.deps.repository.items(id));
    const name = `alerts-migration-${row.createdAt.toISOString().slice(0, 10)}-${row.id.slice(0, 8)}`;
    return resultsFile(name, rows, format);
  }

  /** The user's migrations that ended after `since` having failed, or with items that failed. */
  async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
    const rows = await this.deps.repository.problemsSince(user.id, since, limit, MIGRATION_KINDS);
    const totals = await this.deps.repository.totals(rows.map((row) => row.id));
    const label = (kind: string) => (kind === 'alerts-migration' ? 'Alerts migration' : 'Undo of an alerts migration');
    return changeSetProblems(rows, totals, label, "the migration's results").map(({ kind: _kind, ...problem }) => ({
      ...problem,
      source: 'alerts-migration' as const,
      path: PATHS.alertsMigration,
    }));
  }

  /** The user's migrations queued or running. */
  activeCount(user: SessionUser): Promise<number> {
    return this.deps.repository.activeCount(user.id, MIGRATION_KINDS);
  }
}
