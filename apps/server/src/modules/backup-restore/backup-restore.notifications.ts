import { PATHS, type SessionUser, type WorkNotification } from '@ce/contract';
import type { NotificationSource } from '../notifications/notifications.service.js';
import type { BackupsRepository } from './backup-restore.repository.js';

/** Backups that failed and restores (or their undo) that failed or left items failed, told wherever the user is. */
export function backupRestoreNotifications(
  backups: BackupsRepository,
  /** The restores' run service (their notifications are its). */
  restores: NotificationSource,
): NotificationSource {
  return {
    // The backup and restore tool's operations are the Tools group's: a personal API token hears of them with it.
    capability: 'tools',
    async problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]> {
      const [failedBackups, restored] = await Promise.all([
        backups.problemsSince(user.id, since, limit),
        restores.problemsSince(user, since, limit),
      ]);
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
        ...restored,
      ];
    },
    async activeCount(user: SessionUser): Promise<number> {
      const [running, restoring] = await Promise.all([backups.activeCount(user.id), restores.activeCount(user)]);
      return running + restoring;
    },
  };
}
