import { userMay, type RestorePlan, type RestoreRequest, type RestoreRun, type SessionUser } from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { endRun, sendChangeSetJob } from '../../core/change-sets/job.js';
import { startUndo } from '../../core/change-sets/undo.js';
import type { ChangeSetRepository, ChangeSetRow } from '../../core/change-sets/repository.js';
import { changeItemToApi, changeSetTotals } from '../../core/change-sets/summaries.js';
import { AppError } from '../../core/errors.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import { resultsFile, type ResultRow } from '../../report-kit/change-set-results.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import type { ArchiveLimits } from './archive-reader.js';
import type { BackupsRepository } from './backups.repository.js';
import { RESTORE_KINDS, restoreInputSchema, restorePlan, type RestoreInput } from './restore-kinds.js';

export interface RestoresDependencies {
  backups: BackupsRepository;
  changeSets: ChangeSetRepository;
  queue: JobQueue;
  tokens: SealedTokens;
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

/**
 * Restores, the requests' side: the plan (read, never written), and restores as change sets carried out
 * by the engine (start, read, undo, results file).
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
    const scope = cross && other ? await this.deps.customer.scope(other.token, other.organization.id, [aid]) : source;
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
    return readForCustomer(async () => {
      const { steps } = await restorePlan(this.deps.backups, this.deps.limits, input, this.deps.platform.as({ token }));
      return {
        accountGroupName: input.accountGroupName,
        steps: steps.map((step) => ({
          kind: step.kind,
          key: step.key,
          name: step.name,
          status: step.status,
          phase: step.phase,
          differences: step.differences,
          dropped: step.dropped,
          reason: step.reason,
        })),
      };
    });
  }

  /** Starts a restore: the tokens sealed with it, planned again by the job and carried out, each write once. */
  async create(user: SessionUser, backupId: string, request: RestoreRequest): Promise<RestoreRun> {
    const { input, organization, targetOrganizationId } = await this.input(user, backupId, request);
    const other = request.targetOrganization;
    const row = await this.deps.changeSets.insertRun(
      {
        userId: user.id,
        kind: 'restore',
        organizationId: organization.id,
        organizationName: organization.name,
        targetOrganizationId,
        input: { ...input, accountGroups: [{ aid: input.aid, accountGroupName: input.accountGroupName }] },
      },
      (tx) => this.deps.tokens.seal(request.token, tx),
      targetOrganizationId && other ? (tx) => this.deps.tokens.seal(other.token, tx) : undefined,
    );
    await this.enqueue(row);
    return this.get(user, row.id);
  }

  /** Undoes a restore: deletes what it created, puts back what it updated or deleted. */
  async undo(user: SessionUser, runId: string, tokens: { token: string; targetToken?: string }): Promise<RestoreRun> {
    const source = await this.visible(user, runId);
    if (source.kind !== 'restore') throw new AppError(400, 'not_undoable', 'Only a restore can be undone here.');
    const input = restoreInputSchema.parse(source.input);
    const row = await startUndo({
      repository: this.deps.changeSets,
      tokens: this.deps.tokens,
      queue: this.deps.queue,
      customer: this.deps.customer,
      ...tokens,
      userId: user.id,
      source,
      wroteInto: input.crossOrganization
        ? { accountGroups: [], target: { organizationName: input.targetOrganizationName, accountGroups: [input.aid] } }
        : { accountGroups: [input.aid] },
      kind: 'undo-restore',
      input,
      noun: 'restore',
    });
    return this.get(user, row.id);
  }

  private async enqueue(row: ChangeSetRow): Promise<void> {
    try {
      await sendChangeSetJob(this.deps.queue, this.deps.changeSets, row.id);
    } catch (error) {
      await endRun(this.deps.changeSets, this.deps.tokens, row, 'The restore could not be queued. Start it again.');
      throw error;
    }
  }

  private async visible(user: SessionUser, id: string): Promise<ChangeSetRow> {
    const row = await this.deps.changeSets.findRun(id);
    if (!row || !RESTORE_KINDS.includes(row.kind) || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'restore_not_found', 'No such restore');
    return row;
  }

  async get(user: SessionUser, id: string): Promise<RestoreRun> {
    const row = await this.visible(user, id);
    const input = restoreInputSchema.parse(row.input);
    const [items, totals, requestedBy] = await Promise.all([
      this.deps.changeSets.items(id),
      this.deps.changeSets.totals([id]),
      this.deps.changeSets.requesterEmail(row.userId),
    ]);
    return {
      id: row.id,
      kind: row.kind,
      status: row.status as RestoreRun['status'],
      requestedBy,
      organizationName: row.organizationName,
      targetOrganizationName: input.targetOrganizationName,
      backupId: input.backupId,
      accountGroupName: input.accountGroupName,
      error: row.error,
      totals: changeSetTotals(totals, row.id),
      items: items.map(changeItemToApi),
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      undoOf: row.undoOf,
      undoneBy: row.undoneBy,
    };
  }

  /** The results file of a restore (or its undo): XLSX or CSV, text formula-safe. */
  async results(user: SessionUser, id: string, format: 'xlsx' | 'csv') {
    const row = await this.visible(user, id);
    const rows: ResultRow[] = (await this.deps.changeSets.items(id)).map((item) => ({
      accountGroup: item.accountGroupName,
      kind: String(item.details?.kind ?? ''),
      name: item.subject,
      action: WORDS[item.action] ?? item.action,
      status: item.status,
      id: item.resultId,
      note: item.note,
      error: item.error,
      dropped: ((item.details?.dropped as { name: string; reason: string }[] | undefined) ?? [])
        .map((reference) => `${reference.name}: ${reference.reason}`)
        .join('; '),
    }));
    const name = `restore-${row.createdAt.toISOString().slice(0, 10)}-${row.id.slice(0, 8)}`;
    return resultsFile(name, rows, format);
  }
}
