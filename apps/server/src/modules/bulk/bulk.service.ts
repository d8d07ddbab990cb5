import {
  BULK_ITEM_LIMIT,
  BULK_MESSAGES,
  type BulkAccountGroup,
  type BulkAgentsResponse,
  type BulkRun,
  type BulkRunSummary,
  type BulkTestsList,
  type BulkTestsPlan,
  type CreateBulkRun,
  type DuplicateScan,
  type SessionUser,
  type TestTemplate,
} from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { mapPool } from '../../core/map-pool.js';
import { platformFailure } from '../../core/change-sets/handlers.js';
import type { RunService } from '../../core/runs/run-service.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { toStoredInput } from './bulk-input.js';
import { findDuplicates, planCells } from './bulk-plan.js';
import { inventory } from './read.js';

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
  runs: RunService<BulkRun, BulkRunSummary>;
  platform: PlatformClient;
  customer: CustomerService;
}

/**
 * Bulk operations, the requests' side: reads that help the user choose (agents, tests, roles,
 * duplicate agents, the plan), and the start of a run. The run service (bulk.runs.ts) reads, lists and
 * undoes runs; the change-set engine carries them out (bulk-kinds.ts, bulk-actions.ts).
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
    return this.deps.runs.start(user, {
      kind: input.kind,
      organization: scope.organization,
      input: toStoredInput(input),
      token: request.token,
    });
  }

  /** The bulk runs' notifications and retention, as the app registers them (the run service's). */
  get runs(): RunService<BulkRun, BulkRunSummary> {
    return this.deps.runs;
  }

  problemsSince(user: SessionUser, since: Date, limit: number) {
    return this.deps.runs.problemsSince(user, since, limit);
  }

  activeCount(user: SessionUser): Promise<number> {
    return this.deps.runs.activeCount(user);
  }

  pruneFinished(before: Date): Promise<number> {
    return this.deps.runs.pruneFinished(before);
  }
}
