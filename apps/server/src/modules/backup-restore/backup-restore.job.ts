import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { queuedJob, type Job } from '../../core/jobs.js';
import { DAY_MS, LeasedJobs, type HeldJob } from '../../core/leased-job.js';
import type { LeasedJobDependencies } from '../../core/lease.js';
import type { CallAudit } from '../../core/call-audit.js';
import type { JobQueue } from '../../core/queue.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { backups } from '../../db/schema.js';
import { BackupArchiveWriter, type BackupItem } from './archive.js';
import type { BackupsRepository } from './backup-restore.repository.js';
import { readGroup } from './read.js';
import { laneOfJob } from '../../core/watch-run.js';

export const BACKUP_QUEUE = 'backups.run';
/** The archive is stored in chunks of about this size, as it is written. */
const CHUNK_BYTES = 1024 * 1024;
/** Items go into the backup's index this many at a time, as they are written. */
const INDEX_BATCH = 100;
const REFUSED = 'The platform refused the token: start the backup again with a valid one.';

export async function sendBackupJob(queue: JobQueue, repository: BackupsRepository, id: string): Promise<void> {
  const jobId = await queue.send(
    BACKUP_QUEUE,
    { backupId: id },
    { retryLimit: 2, retryDelay: 5, expireInSeconds: 4 * 3600 },
  );
  await repository.update(id, { jobId });
}

export interface BackupJobDependencies extends LeasedJobDependencies {
  repository: BackupsRepository;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  /** Audits the platform calls of a watch's backup with the watch's id. */
  callAudit?: CallAudit;
}

/** Collects the archive's bytes and stores them a chunk at a time, hashing them as they go. */
class ChunkSink {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private position = 0;
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly store: (position: number, content: Buffer) => Promise<void>) {}

  async write(bytes: Buffer): Promise<void> {
    this.hash.update(bytes);
    this.size += bytes.length;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= CHUNK_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const content = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await this.store(this.position++, content);
  }

  checksum(): string {
    return this.hash.digest('hex');
  }
}

/**
 * The backup job: claims a backup under a lease, reads its account group once at the organization's pace
 * and writes the archive as it reads (each item into the zip and to the database in chunks, and into the item
 * index, so memory stays flat), then records the counts, size and checksum and erases the token. A backup whose worker died is
 * sent back to the queue and read again from the start (reads change nothing); retention is its own.
 */
export class BackupJob {
  private readonly leased: LeasedJobs<typeof backups>;
  /** Aborted when the instance stops: backups under way let their claims go and are read again elsewhere. */

  constructor(private readonly deps: BackupJobDependencies) {
    const { repository, queue, tokens } = deps;
    this.leased = new LeasedJobs(deps, {
      name: 'backup',
      metric: 'backups',
      leases: repository.leases,
      queue,
      queueOf: () => BACKUP_QUEUE,
      send: (row) => sendBackupJob(queue, repository, row.id),
      unrunnable: async (row) =>
        (await tokens.open(row.tokenId)) === null ? 'The token is no longer available: start the backup again.' : null,
      giveUp: async (row, error) => {
        await repository.update(row.id, { status: 'failed', error, finishedAt: new Date(), leaseUntil: null });
        await tokens.erase(row.tokenId);
      },
      // An upload whose check never ended (its instance stopped) is gone after a day.
      prune: async (retentionDays) => ({
        deleted: await repository.deleteFinishedBefore(
          new Date(Date.now() - retentionDays * DAY_MS),
          new Date(Date.now() - DAY_MS),
        ),
      }),
    });
  }

  jobs(retentionDays: number): Job[] {
    return [
      queuedJob({
        queue: BACKUP_QUEUE,
        data: z.object({ backupId: z.uuid() }),
        run: ({ backupId }) => this.run(backupId),
      }),
      ...this.leased.keepers('backups', retentionDays),
    ];
  }

  /** Backups whose worker or queue job was lost go back to the queue; those whose token is gone end. */
  recoverOrphans(all: boolean, now = new Date()): Promise<{ requeued: number; failed: number }> {
    return this.leased.recoverOrphans(all, now);
  }

  /**
   * Stops the backups under way (the instance is stopping): each one's reads end, it lets its claim go and keeps its
   * token, and goes back to the queue at once for another worker, which reads the group again from the start (a
   * backup only reads the customer's account). A backup that ended meanwhile stays as it ended.
   */
  stop(): Promise<void> {
    return this.leased.stop();
  }

  run(backupId: string): Promise<void> {
    const { logger, tokens } = this.deps;
    return this.leased.run(backupId, {
      work: (job, signal) => this.write(job, signal),
      done: (job, done) => job.write({ ...done, status: 'done', finishedAt: new Date(), error: null }),
      failed: async (job, error) => {
        const message =
          error instanceof PlatformError
            ? error.status === 401
              ? REFUSED
              : error.message
            : 'The backup stopped because of an internal error.';
        if (!(error instanceof PlatformError))
          logger.error({ err: error, backupId, jobGeneration: job.lease.generation }, 'backup failed');
        return job.write({ status: 'failed', finishedAt: new Date(), error: message });
      },
      ended: (job) => tokens.erase(job.row.tokenId),
    });
  }

  /** Reads the group and writes the archive, item by item; answers what the row records of it. */
  private async write(job: HeldJob<typeof backups>, signal: AbortSignal) {
    const { repository } = this.deps;
    const row = job.row;
    const token = await this.deps.tokens.open(row.tokenId);
    if (token === null) throw new Error('the backup token is gone');
    const session = this.deps.platform.as({
      token,
      organizationId: row.organizationId,
      signal,
      lane: laneOfJob(row.watchRunId),
      onAnswer: this.deps.callAudit?.observer(row.watchRunId),
    });
    // Every write of the archive is fenced: a worker that lost its lease adds nothing to the new holder's.
    await job.fenced((tx) => repository.clearArchive(row.id, tx));
    const sink = new ChunkSink((position, content) =>
      job.fenced((tx) => repository.addChunk(row.id, position, content, tx)),
    );
    const writer = new BackupArchiveWriter({
      organization: { id: row.organizationId, name: row.organizationName },
      accountGroup: { aid: row.aid, accountGroupName: row.accountGroupName },
      createdAt: row.createdAt.toISOString(),
      createdBy: await repository.requesterEmail(row.userId),
    });
    // Items arrive from reads running at once; each is written as it comes, in arrival order, into the
    // archive and (a batch at a time) into the index that later reads use instead of the archive.
    let writing = Promise.resolve();
    let items = 0;
    let batch: BackupItem[] = [];
    await readGroup(session, row.aid, (item: BackupItem) => {
      items += 1;
      const bytes = writer.add(item);
      batch.push(item);
      const indexed = batch.length >= INDEX_BATCH ? batch : null;
      if (indexed) batch = [];
      writing = writing.then(async () => {
        await sink.write(bytes);
        if (indexed) await job.fenced((tx) => repository.addItems(row.id, indexed, tx));
      });
    });
    await writing;
    await job.fenced((tx) => repository.addItems(row.id, batch, tx));
    const { bytes, manifest } = writer.finish();
    await sink.write(bytes);
    await sink.flush();
    return {
      counts: manifest.counts,
      items,
      size: sink.size,
      checksum: sink.checksum(),
      indexedAt: new Date(),
    };
  }
}
