import type { BackupsService } from '../backup-restore/backup-restore.service.js';
import { driftLine, foldReferences, type DriftLine } from './watch-changes.js';
import type { WatchRunRow } from './watch-runs.repository.js';

/**
 * Drift per account group between the previous run's backup and this run's, in words: a group the previous run
 * backed up too is compared; one it did not (added since by an edit) starts from this run.
 */
export async function driftSince(
  backups: Pick<BackupsService, 'driftBetween'>,
  previous: WatchRunRow | undefined,
  made: { aid: string; backupId: string }[],
  groups: WatchRunRow['accountGroups'],
): Promise<DriftLine[]> {
  const earlier = new Map((previous?.backups ?? []).map((backup) => [backup.aid, backup.backupId]));
  const names = new Map(groups.map((group) => [group.aid, group.accountGroupName]));
  const lines: DriftLine[] = [];
  for (const { aid, backupId } of made) {
    const before = earlier.get(aid);
    if (!before) continue;
    // The previous backup may have gone (deleted by a person, or by retention): this run is then the baseline.
    const compared = await backups.driftBetween(before, backupId);
    for (const change of compared?.changes ?? []) lines.push(driftLine(names.get(aid) ?? aid, change));
  }
  return foldReferences(lines);
}
