import { createHash } from 'node:crypto';
import {
  BACKUP_MESSAGES,
  backupSchema,
  userMay,
  type Backup,
  type CreateBackups,
  type Drift,
  type DriftRequest,
  type SessionUser,
} from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { BackupArchiveError, readArchive, type BackupItem } from './archive.js';
import { sendBackupJob } from './backup.job.js';
import type { BackupQuery, BackupRow, BackupsRepository } from './backups.repository.js';
import { drift } from './drift.js';
import { backupItems } from './restore-kinds.js';
import { readGroup } from './read.js';

export interface BackupsDependencies {
  repository: BackupsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  customer: CustomerService;
}

const fields = backupSchema.pick({ status: true, origin: true });

function toApi(row: BackupRow & { requestedBy: string }): Backup {
  return {
    id: row.id,
    ...fields.parse(row),
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    aid: row.aid,
    accountGroupName: row.accountGroupName,
    requestedBy: row.requestedBy,
    counts: row.counts ?? null,
    items: row.items,
    size: row.size,
    checksum: row.checksum,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Backups, the requests' side: start backups of account groups (the job reads and writes them), list,
 * download and upload archives, and compare a backup with the live group or with another backup.
 */
export class BackupsService {
  constructor(private readonly deps: BackupsDependencies) {}

  /** One backup per account group, each with the token sealed beside it, queued for the job. */
  async create(user: SessionUser, request: CreateBackups): Promise<Backup[]> {
    const aids = [...new Set(request.accountGroups.map((group) => group.aid))];
    const scope = await this.deps.customer.scope(request.token, request.organization.id, aids);
    const created: Backup[] = [];
    for (const aid of aids) {
      const row = await this.deps.repository.insert(
        {
          userId: user.id,
          kind: 'backup',
          organizationId: scope.organization.id,
          organizationName: scope.organization.name,
          aid,
          accountGroupName: scope.accountGroupName(aid),
        },
        (tx) => this.deps.tokens.seal(request.token, tx),
      );
      try {
        await sendBackupJob(this.deps.queue, this.deps.repository, row.id);
      } catch (error) {
        await this.deps.repository.update(row.id, { status: 'failed', error: 'The backup could not be queued.' });
        await this.deps.tokens.erase(row.tokenId);
        throw error;
      }
      created.push(toApi({ ...row, requestedBy: user.email }));
    }
    return created;
  }

  list(user: SessionUser, query: Omit<BackupQuery, 'userId' | 'limit'>): Promise<Backup[]> {
    return this.deps.repository
      .list({ ...query, userId: userMay(user, 'seeAllRuns') ? undefined : user.id, limit: 200 })
      .then((rows) => rows.map(toApi));
  }

  private async visible(user: SessionUser, id: string): Promise<BackupRow> {
    const row = await this.deps.repository.find(id);
    if (!row || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'backup_not_found', 'No such backup');
    return row;
  }

  async get(user: SessionUser, id: string): Promise<Backup> {
    const row = await this.visible(user, id);
    return toApi({ ...row, requestedBy: await this.deps.repository.requesterEmail(row.userId) });
  }

  /** The archive's bytes, a chunk at a time, with the name a download takes. */
  async download(user: SessionUser, id: string): Promise<{ filename: string; chunks: AsyncIterable<Buffer> }> {
    const row = await this.finished(user, id);
    const stamp = row.createdAt.toISOString().slice(0, 16).replace(/[:T]/g, '-');
    const group = row.accountGroupName.replace(/[^\p{L}\p{N}._]+/gu, '-').slice(0, 60);
    return { filename: `backup-${group}-${stamp}.zip`, chunks: this.deps.repository.chunks(row.id) };
  }

  private async finished(user: SessionUser, id: string): Promise<BackupRow> {
    const row = await this.visible(user, id);
    if (row.status !== 'done') throw new AppError(409, 'backup_not_finished', BACKUP_MESSAGES.notFinished);
    return row;
  }

  /** A backup's items, read back from its stored archive (checked as an upload is). */
  private items(row: BackupRow): Promise<BackupItem[]> {
    return backupItems(this.deps.repository, row.id);
  }

  /** What a backup holds, item by item (names and kinds, never the configurations). */
  async itemsOf(user: SessionUser, id: string) {
    const items = await this.items(await this.finished(user, id));
    return { items: items.map(({ kind, key, name, masked }) => ({ kind, key, name, masked })) };
  }

  /**
   * Keeps an uploaded archive as a backup of the group its manifest names: recognised by its content and
   * checked whole (core/zip.ts, the manifest and every file's checksum) before it is kept.
   */
  async upload(user: SessionUser, bytes: Buffer): Promise<Backup> {
    let read: ReturnType<typeof readArchive>;
    try {
      read = readArchive(bytes);
    } catch (error) {
      if (error instanceof BackupArchiveError)
        throw new AppError(400, 'invalid_backup', error.message, [{ path: 'file', message: error.message }]);
      throw error;
    }
    const { manifest, items } = read;
    const row = await this.deps.repository.insert({
      userId: user.id,
      kind: 'backup',
      origin: 'upload',
      status: 'done',
      organizationId: manifest.source.organization.id,
      organizationName: manifest.source.organization.name,
      aid: manifest.source.accountGroup.aid,
      accountGroupName: manifest.source.accountGroup.accountGroupName,
      counts: manifest.counts,
      items: items.length,
      size: bytes.length,
      checksum: createHash('sha256').update(bytes).digest('hex'),
      finishedAt: new Date(),
    });
    const CHUNK = 1024 * 1024;
    for (let position = 0; position * CHUNK < bytes.length; position++)
      await this.deps.repository.addChunk(row.id, position, bytes.subarray(position * CHUNK, (position + 1) * CHUNK));
    return toApi({ ...row, requestedBy: user.email });
  }

  /** What changed between a backup and the live group (read with a token), or another backup. */
  async compare(user: SessionUser, id: string, against: DriftRequest): Promise<Drift> {
    const row = await this.finished(user, id);
    const mine = await this.items(row);
    if (against.backupId) {
      const other = await this.finished(user, against.backupId);
      return {
        against: `the backup of ${other.accountGroupName} made ${other.createdAt.toISOString()}`,
        ...drift(mine, await this.items(other)),
      };
    }
    const token = against.token ?? '';
    await this.deps.customer.scope(token, row.organizationId, [row.aid]);
    const live: BackupItem[] = [];
    await readForCustomer(() => readGroup(this.deps.platform.as({ token }), row.aid, (item) => live.push(item)));
    return { against: `${row.accountGroupName}, live`, ...drift(mine, live) };
  }
}
