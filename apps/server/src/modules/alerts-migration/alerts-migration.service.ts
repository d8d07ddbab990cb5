import {
  ALERTS_MIGRATION_MESSAGES,
  type MigrationPlan,
  type MigrationRequest,
  type MigrationRules,
  type MigrationRun,
  type MigrationRunSummary,
  type SessionUser,
} from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { RunService } from '../../core/runs/run-service.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { conditionInWords, notificationsInWords } from './describe.js';
import { changeItems, planItems, planMigration, plannedWrites, type MigrationInput } from './plan.js';
import { readSource } from './read.js';
import { writeProblems } from './write-access.js';

export interface AlertsMigrationDependencies {
  runs: RunService<MigrationRun, MigrationRunSummary>;
  platform: PlatformClient;
  customer: CustomerService;
}

/**
 * Alerts migration, the requests' side: the source's rules, the plan (read, never written), and the start
 * of a migration. The run service (alerts-migration.runs.ts) reads, lists and undoes migrations and makes
 * their results file; the change-set engine carries them out (kinds.ts, actions.ts).
 */
/**
 * A "target organization" that is the source's own is no second organization: its token is neither used nor
 * checked, so it is dropped before anything (it would otherwise be sealed with the run for nothing).
 */
function oneOrganizationOnce(request: MigrationRequest): MigrationRequest {
  if (request.targetOrganization?.organization.id !== request.organization.id) return request;
  const { targetOrganization: _same, ...rest } = request;
  return rest;
}

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
          tests: rule.testIds.map((testId) => testNames.get(testId) ?? testId),
          notifications: notificationsInWords(rule),
        })),
        windows: source.windows.map((window) => {
          const covered = new Set((window.tests ?? []).map((test) => test.testId));
          return {
            windowId: window.alertSuppressionWindowId,
            name: window.name,
            ruleIds: source.rules
              .filter((rule) => rule.testIds.some((testId) => covered.has(testId)))
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
          { side: 'target' },
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
  async plan(asked: MigrationRequest): Promise<MigrationPlan> {
    const request = oneOrganizationOnce(asked);
    const { input } = await this.input(request);
    const read = <T>(work: () => Promise<T>) =>
      request.targetOrganization ? this.deps.customer.readForTwo(request.token, work) : readForCustomer(work);
    return read(async () => {
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
  async create(user: SessionUser, asked: MigrationRequest): Promise<MigrationRun> {
    const request = oneOrganizationOnce(asked);
    const { input, organization, targetOrganizationId } = await this.input(request);
    const target = request.targetOrganization;
    return this.deps.runs.start(user, {
      kind: 'alerts-migration',
      organization,
      targetOrganizationId,
      input: { ...input },
      token: request.token,
      targetToken: target?.token,
    });
  }

  /** The migrations' notifications, as the app registers them (the run service's). */
  get runs(): RunService<MigrationRun, MigrationRunSummary> {
    return this.deps.runs;
  }

  problemsSince(user: SessionUser, since: Date, limit: number) {
    return this.deps.runs.problemsSince(user, since, limit);
  }

  activeCount(user: SessionUser): Promise<number> {
    return this.deps.runs.activeCount(user);
  }
}
