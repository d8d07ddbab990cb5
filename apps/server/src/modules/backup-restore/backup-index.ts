import { AppError } from '../../core/errors.js';
import { BackupArchiveReader, type ArchiveLimits, type ItemHalf } from './archive-reader.js';
import { BackupArchiveError, type BackupItem } from './archive.js';
import type { BackupsRepository } from './backup-restore.repository.js';

/** Halves written to the index at a time while an archive is read: memory holds this many files at most. */
const HALVES_AT_ONCE = 100;

/**
 * Writes an archive's items into the backup's index as the reader checks them, a batch at a time. A refusal
 * (a file that does not match its checksum, a field of the wrong type) stops it with the reader's words.
 */
export async function indexArchive(
  repository: BackupsRepository,
  backupId: string,
  reader: BackupArchiveReader,
): Promise<void> {
  let batch: ItemHalf[] = [];
  for await (const half of reader.halves()) {
    batch.push(half);
    if (batch.length < HALVES_AT_ONCE) continue;
    await repository.addHalves(backupId, batch);
    batch = [];
  }
  await repository.addHalves(backupId, batch);
  await repository.update(backupId, { indexedAt: new Date() });
}

/**
 * A stored backup's items, from its index: items, drift, plans and restores never unpack the archive. An
 * archive an earlier version kept without an index is read once (checked as an upload is, under `limits`)
 * and indexed; one that fails the checks is refused in words.
 */
export async function backupItems(
  repository: BackupsRepository,
  backupId: string,
  limits: ArchiveLimits,
): Promise<BackupItem[]> {
  await indexedOnce(repository, backupId, limits);
  return repository.items(backupId);
}

/** What a backup holds, item by item (names and kinds, never the configurations), from its index. */
export async function backupItemNames(repository: BackupsRepository, backupId: string, limits: ArchiveLimits) {
  await indexedOnce(repository, backupId, limits);
  return repository.itemNames(backupId);
}

async function indexedOnce(repository: BackupsRepository, backupId: string, limits: ArchiveLimits): Promise<void> {
  const row = await repository.find(backupId);
  if (!row || row.indexedAt) return;
  const chunks: Buffer[] = [];
  for await (const chunk of repository.chunks(backupId)) chunks.push(chunk);
  try {
    await indexArchive(repository, backupId, await BackupArchiveReader.open(Buffer.concat(chunks), limits));
  } catch (error) {
    if (!(error instanceof BackupArchiveError)) throw error;
    const reason = `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`;
    throw new AppError(409, 'backup_unreadable', `This backup cannot be read: ${reason}`);
  }
}
