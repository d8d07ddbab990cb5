import { PATHS, type SessionUser, type WorkNotification } from '@ce/contract';
import type { ChangeSetRepository } from '../../core/change-sets/repository.js';
import { changeSetProblems } from '../../core/change-sets/summaries.js';
import type { NotificationSource } from '../notifications/notifications.service.js';
import type { BackupsRepository } from './backups.repository.js';
import { RESTORE_KINDS } from './restore-kinds.js';

/** Backups that failed and restores (or their undo) that failed or left items failed, told wherever the user is. */
export function backupRestoreNotifications(
  backups: BackupsRepository,
  changeSets: ChangeSetRepository,
): NotificationSource {
  return {
    async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
      const [failedBackups, restores] = await Promise.all([
        backups.problemsSince(user.id, since, limit),
        changeSets.problemsSince(user.id, since, limit, RESTORE_KINDS),
      ]);
      const totals = await changeSets.totals(restores.map((row) => row.id));
      const label = (kind: string) => (kind === 'restore' ? 'Restore' : 'Undo of a restore');
      return [
        ...failedBackups.flatMap((row): WorkNotification[] =>
          row.finishedAt
            ? [
                {
                  key: `${row.id}:failed`,
                  source: 'backup-restore',
                  outcome: 'failed',
                  title: 'Backup failed',
                  message: `${row.organizationName}, ${row.accountGroupName}: ${row.error ?? 'The backup stopped.'}`,
                  path: PATHS.backupRestore,
                  at: row.finishedAt.toISOString(),
                },
              ]
            : [],
        ),
        ...changeSetProblems(restores, totals, label, "the restore's results").map(({ kind: _kind, ...problem }) => ({
          ...problem,
          source: 'backup-restore' as const,
          path: PATHS.backupRestore,
        })),
      ];
    },
    async activeCount(user: SessionUser): Promise<number> {
      const [running, restoring] = await Promise.all([
        backups.activeCount(user.id),
        changeSets.activeCount(user.id, RESTORE_KINDS),
      ]);
      return running + restoring;
    },
  };
}
