import { createHash } from 'node:crypto';
import {
  PATHS,
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
import type { JobsAhead } from '../../core/jobs-ahead.js';
import { AppError } from '../../core/errors.js';
import { personOf, type SourcedEntry, type TimelineQuery } from '../../core/timeline.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { AuditLog } from '../audit/index.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import { BackupArchiveReader, type ArchiveLimits } from './archive-reader.js';
import { BackupArchiveError, type BackupItem } from './archive.js';
import { backupItemNames, backupItems, indexArchive } from './backup-index.js';
import { sendBackupJob } from './backup-restore.job.js';
import { UPLOADING, type BackupQuery, type BackupRow, type BackupsRepository } from './backup-restore.repository.js';
import { drift } from './drift.js';
import { readGroup } from './read.js';
import type { WatchRunScope } from '../../core/watch-run.js';

/** A backup a watch run made: its account group and where it stands. */
export interface WatchBackup {
  id: string;
  aid: string;
  accountGroupName: string;
  status: string;
  error: string | null;
}

export interface BackupsDependencies {
  repository: BackupsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  customer: CustomerService;
  audit: AuditLog;
  jobsAhead: JobsAhead;
  /** What an archive may unpack to, and what each user's uploaded archives may hold together. */
  archives: ArchiveLimits & { quotaBytes: number };
}

/** The archive's bytes are stored in chunks of this size. */
const CHUNK_BYTES = 1024 * 1024;

/** Megabytes as a sentence says them: one decimal below 10 ("0.4 MB"), whole above ("95 MB"). */
const megabytes = (bytes: number) => {
  const value = bytes / (1024 * 1024);
  return value < 10 ? String(Number(value.toFixed(1))) : String(Math.round(value));
};

/** An upload refused, in the archive reader's words, on the file field. */
const refusedUpload = (message: string, code = 'invalid_backup') =>
  new AppError(400, code, message, [{ path: 'file', message }]);

const fields = backupSchema.pick({ status: true, origin: true });

function toApi(row: BackupRow & { requestedBy: string }, ahead?: Map<string, number>): Backup {
  return {
    id: row.id,
    ...fields.parse(row),
    ahead: ahead?.get(row.id) ?? null,
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
    const created: BackupRow[] = [];
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
      created.push(row);
    }
    const ahead = await this.deps.jobsAhead(created);
    return created.map((row) => toApi({ ...row, requestedBy: user.email }, ahead));
  }

  /**
   * The backups of watch run `run`, one per account group, once (decision 0031): a second call (the run taken up
   * again) queues none twice. They are the owner's, listed with their backups.
   */
  async startForWatch(run: WatchRunScope, token: string): Promise<void> {
    const made = new Set((await this.deps.repository.ofWatchRun(run.id)).map((row) => row.aid));
    for (const group of run.accountGroups.filter(({ aid }) => !made.has(aid))) {
      const row = await this.deps.repository.insertOnce(
        {
          userId: run.userId,
          kind: 'backup',
          organizationId: run.organizationId,
          organizationName: run.organizationName,
          aid: group.aid,
          accountGroupName: group.accountGroupName,
          watchRunId: run.id,
        },
        (tx) => this.deps.tokens.seal(token, tx),
      );
      if (row) await sendBackupJob(this.deps.queue, this.deps.repository, row.id);
    }
  }

  /** Watch run `runId`'s backups, where each stands. */
  async ofWatchRun(runId: string): Promise<WatchBackup[]> {
    const rows = await this.deps.repository.ofWatchRun(runId);
    return rows.map((row) => ({
      id: row.id,
      aid: row.aid,
      accountGroupName: row.accountGroupName,
      status: row.status,
      error: row.error,
    }));
  }

  /** What changed in an account group between two finished backups (a watch's previous and latest). */
  async driftBetween(earlierId: string, laterId: string): Promise<ReturnType<typeof drift> | null> {
    const [earlier, later] = await Promise.all([
      this.deps.repository.find(earlierId),
      this.deps.repository.find(laterId),
    ]);
    if (earlier?.status !== 'done' || later?.status !== 'done') return null;
    return drift(await this.deps.repository.items(earlierId), await this.deps.repository.items(laterId));
  }

  async list(user: SessionUser, query: Omit<BackupQuery, 'userId' | 'limit'>): Promise<Backup[]> {
    const rows = await this.deps.repository.list({
      ...query,
      userId: userMay(user, 'seeAllRuns') ? undefined : user.id,
      limit: 200,
    });
    const ahead = await this.deps.jobsAhead(rows);
    return rows.map((row) => toApi(row, ahead));
  }

  /** One organization's backups, for its page (a TimelineSource). */
  readonly tools = ['backups'] as const;
  readonly capability = 'tools' as const;
  async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
    const rows = await this.deps.repository.timeline(query);
    return rows.map(({ backup, ...owner }) => ({
      id: backup.id,
      tool: 'backups',
      what: backup.origin === 'upload' ? 'Backup (uploaded archive)' : 'Backup',
      accountGroups: [backup.accountGroupName],
      person: personOf(owner),
      createdAt: backup.createdAt.toISOString(),
      status: backup.status,
      // The backup itself: the Backup & Restore page opens it from its address.
      path: `${PATHS.backupRestore}?backup=${encodeURIComponent(backup.id)}`,
      organizationName: backup.organizationName,
    }));
  }

  private async visible(user: SessionUser, id: string): Promise<BackupRow> {
    const row = await this.deps.repository.find(id);
    if (!row || row.status === UPLOADING || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'backup_not_found', 'No such backup');
    return row;
  }

  async get(user: SessionUser, id: string): Promise<Backup> {
    const row = await this.visible(user, id);
    const [requestedBy, ahead] = await Promise.all([
      this.deps.repository.requesterEmail(row.userId),
      this.deps.jobsAhead([row]),
    ]);
    return toApi({ ...row, requestedBy }, ahead);
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

  /** A backup's items, from its index (made when it was written or uploaded). */
  private items(row: BackupRow): Promise<BackupItem[]> {
    return backupItems(this.deps.repository, row.id, this.deps.archives);
  }

  /** What a backup holds, item by item (names and kinds, never the configurations). */
  async itemsOf(user: SessionUser, id: string) {
    const row = await this.finished(user, id);
    return { items: await backupItemNames(this.deps.repository, row.id, this.deps.archives) };
  }

  /**
   * Keeps an uploaded archive as a backup of the group its manifest names: recognised by its content and
   * checked (core/zip.ts, the manifest, then every file's checksum and shape, one file at a time) while its
   * items go into the index; it counts against the user's upload quota. Refused in words, nothing kept.
   */
  async upload(user: SessionUser, bytes: Buffer): Promise<Backup> {
    let reader: BackupArchiveReader;
    try {
      reader = await BackupArchiveReader.open(bytes, this.deps.archives);
    } catch (error) {
      throw error instanceof BackupArchiveError ? refusedUpload(error.message) : error;
    }
    const { manifest } = reader;
    const inserted = await this.deps.repository.insertUpload(
      {
        userId: user.id,
        kind: 'backup',
        organizationId: manifest.source.organization.id,
        organizationName: manifest.source.organization.name,
        aid: manifest.source.accountGroup.aid,
        accountGroupName: manifest.source.accountGroup.accountGroupName,
        counts: manifest.counts,
        items: manifest.entries.filter((entry) => entry.part === 'config').length,
        size: bytes.length,
      },
      this.deps.archives.quotaBytes,
    );
    if ('usedBytes' in inserted)
      throw refusedUpload(
        `Your uploaded backups use ${megabytes(inserted.usedBytes)} MB of your ${megabytes(this.deps.archives.quotaBytes)} MB: this archive (${megabytes(bytes.length)} MB) does not fit. Delete backups you no longer need to make room.`,
        'backup_quota_full',
      );
    const { row } = inserted;
    try {
      const hash = createHash('sha256');
      for (let position = 0; position * CHUNK_BYTES < bytes.length; position++) {
        const chunk = bytes.subarray(position * CHUNK_BYTES, (position + 1) * CHUNK_BYTES);
        hash.update(chunk);
        await this.deps.repository.addChunk(row.id, position, chunk);
      }
      await indexArchive(this.deps.repository, row.id, reader);
      const done = { status: 'done', checksum: hash.digest('hex'), finishedAt: new Date() };
      await this.deps.repository.update(row.id, done);
      return toApi({ ...row, ...done, requestedBy: user.email });
    } catch (error) {
      await this.deps.repository.delete(row.id);
      throw error instanceof BackupArchiveError ? refusedUpload(error.message) : error;
    }
  }

  /**
   * Deletes a backup, for its owner or a Super User (anyone else is told there is no such backup): its
   * archive and its index go with it, and the audit log says who deleted what. Not while it is being made,
   * nor while a restore from it waits or runs.
   */
  async delete(user: SessionUser, id: string): Promise<void> {
    const row = await this.visible(user, id);
    if (row.status === 'queued' || row.status === 'running')
      throw new AppError(409, 'backup_not_finished', 'This backup is still being made: delete it once it has ended.');
    if (await this.deps.repository.restoring(id))
      throw new AppError(
        409,
        'backup_restoring',
        'A restore from this backup is under way: delete the backup once the restore has ended.',
      );
    if (!(await this.deps.repository.delete(id))) return;
    await this.deps.audit.record(
      user,
      'backup.deleted',
      `${row.organizationName} / ${row.accountGroupName}, ${row.createdAt.toISOString()}`,
      {
        backup: row.id,
        owner: await this.deps.repository.requesterEmail(row.userId),
        origin: row.origin,
        size: row.size,
      },
    );
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
