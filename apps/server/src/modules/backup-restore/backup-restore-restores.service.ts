import { z } from 'zod';
import {
  PATHS,
  restoreRunSchema,
  userMay,
  type RestorePlan,
  type RestoreRequest,
  type RestoreRun,
  type SessionUser,
} from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { changeItemToApi } from '../../core/change-sets/summaries.js';
import { AppError } from '../../core/errors.js';
import { runBasics, type RunKind, type RunService } from '../../core/runs/run-service.js';
import type { ResultRow } from '../../report-kit/change-set-results.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import type { ArchiveLimits } from './archive-reader.js';
import type { BackupsRepository } from './backup-restore.repository.js';
import { RESTORE_KINDS, restoreInputSchema, restorePlan, type RestoreInput } from './restore-kinds.js';

export interface RestoresDependencies {
  backups: BackupsRepository;
  runs: RunService<RestoreRun>;
  platform: PlatformClient;
  customer: CustomerService;
  /** What a stored archive kept before the item index may unpack to, when it is read once to index it. */
  limits: ArchiveLimits;
}

const WORDS: Record<string, string> = {
  'restore-create': 'Create',
  'restore-update': 'Update',
  'restore-delete': 'Delete',
  'restore-keep': 'Leave',
};

const runFields = restoreRunSchema.pick({ status: true });
const droppedSchema = z.array(z.object({ name: z.string(), reason: z.string() })).catch([]);
/** The references an item left behind, as its plan recorded them. */
const droppedOf = (details: Record<string, unknown> | null) => droppedSchema.parse(details?.dropped ?? []);

/** Restores as the run service serves them: a restore and its undo, with a results file (no list). */
export const RESTORE_RUNS: RunKind<RestoreRun> = {
  kinds: RESTORE_KINDS,
  timeline: 'restores',
  noun: 'restore',
  notFound: { code: 'restore_not_found', message: 'No such restore' },
  run(row, items, totals) {
    const input = restoreInputSchema.parse(row.input);
    return {
      ...runBasics(row, totals),
      kind: row.kind,
      ...runFields.parse(row),
      targetOrganizationName: input.targetOrganizationName,
      backupId: input.backupId,
      accountGroupName: input.accountGroupName,
      items: items.map(changeItemToApi),
    };
  },
  undo: {
    of: 'restore',
    notUndoable: 'Only a restore can be undone here.',
    kind: 'undo-restore',
    /** Deletes what the restore created, puts back what it updated or deleted, in the group it wrote. */
    wroteInto(row) {
      const input = restoreInputSchema.parse(row.input);
      return input.crossOrganization
        ? { accountGroups: [], target: { organizationName: input.targetOrganizationName, accountGroups: [input.aid] } }
        : { accountGroups: [input.aid] };
    },
    input: (row) => restoreInputSchema.parse(row.input),
  },
  results: {
    name: 'restore',
    rows: (items) =>
      items.map((item): ResultRow => ({
        accountGroup: item.accountGroupName,
        kind: String(item.details?.kind ?? ''),
        name: item.subject,
        action: WORDS[item.action] ?? item.action,
        status: item.status,
        id: item.resultId,
        note: item.note,
        error: item.error,
        dropped: droppedOf(item.details)
          .map((reference) => `${reference.name}: ${reference.reason}`)
          .join('; '),
      })),
  },
  notifications: {
    source: 'backup-restore',
    label: (kind) => (kind === 'restore' ? 'Restore' : 'Undo of a restore'),
    where: "the restore's results",
    path: () => PATHS.backupRestore,
  },
};

/**
 * Restores, the requests' side: the plan (read, never written) and the start of a restore. The run service
 * (`RESTORE_RUNS`) reads and undoes restores and makes their results file; the change-set engine carries
 * them out (restore-kinds.ts, restore-actions.ts).
 */
export class RestoresService {
  constructor(private readonly deps: RestoresDependencies) {}

  /** The backup (finished, visible to the user) and where its items go, checked against the tokens. */
  private async input(user: SessionUser, backupId: string, request: RestoreRequest) {
    const backup = await this.deps.backups.find(backupId);
    if (!backup || (backup.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'backup_not_found', 'No such backup');
    if (backup.status !== 'done') throw new AppError(409, 'backup_not_finished', 'This backup is not finished yet.');
    const other = request.targetOrganization;
    const cross = Boolean(other && other.organization.id !== backup.organizationId);
    const aid = request.aid ?? backup.aid;
    const source = await this.deps.customer.scope(request.token, backup.organizationId, cross ? [] : [aid]);
    const scope =
      cross && other
        ? await this.deps.customer.scope(other.token, other.organization.id, [aid], { side: 'target' })
        : source;
    const input: RestoreInput = {
      backupId,
      backupName: `${backup.accountGroupName}, ${backup.createdAt.toISOString()}`,
      aid,
      accountGroupName: scope.accountGroupName(aid),
      items: request.items,
      remove: request.remove,
      crossOrganization: cross,
      targetOrganizationName: cross ? scope.organization.name : null,
    };
    return { input, organization: source.organization, targetOrganizationId: cross ? scope.organization.id : null };
  }

  /** What restoring the chosen items would do; nothing is written. */
  async plan(user: SessionUser, backupId: string, request: RestoreRequest): Promise<RestorePlan> {
    const { input } = await this.input(user, backupId, request);
    const token = input.crossOrganization ? (request.targetOrganization?.token ?? '') : request.token;
    // Into another organization the plan reads with that organization's token only.
    return readForCustomer(
      async () => {
        const { steps } = await restorePlan(
          this.deps.backups,
          this.deps.limits,
          input,
          this.deps.platform.as({ token }),
        );
        return {
          accountGroupName: input.accountGroupName,
          steps: steps.map((step) => ({
            kind: step.kind,
            key: step.key,
            name: step.name,
            ...(step.previousName === undefined ? {} : { previousName: step.previousName }),
            status: step.status,
            phase: step.phase,
            differences: step.differences,
            dropped: step.dropped,
            reason: step.reason,
          })),
        };
      },
      { side: input.crossOrganization ? 'target' : 'customer' },
    );
  }

  /** Starts a restore: the tokens sealed with it, planned again by the job and carried out, each write once. */
  async create(user: SessionUser, backupId: string, request: RestoreRequest): Promise<RestoreRun> {
    const { input, organization, targetOrganizationId } = await this.input(user, backupId, request);
    return this.deps.runs.start(user, {
      kind: 'restore',
      organization,
      targetOrganizationId,
      input: { ...input, accountGroups: [{ aid: input.aid, accountGroupName: input.accountGroupName }] },
      token: request.token,
      targetToken: request.targetOrganization?.token,
    });
  }

  get runs(): RunService<RestoreRun> {
    return this.deps.runs;
  }
}
