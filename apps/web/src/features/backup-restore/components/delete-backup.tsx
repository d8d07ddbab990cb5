import type { Backup } from '@ce/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast-store';
import { useDeleteBackup } from '../api/delete';
import { kilobytes } from './backups-table';
import { dateTime } from '../../../lib/dates';

/**
 * Asks before a backup is deleted, naming it (group, organization, when and by whom, items and size): its
 * archive goes from the server too and cannot come back. Cancel is where the dialog opens.
 */
export function DeleteBackupDialog({
  backup,
  onClose,
  onDeleted,
}: {
  backup: Backup | null;
  onClose: () => void;
  onDeleted: (backup: Backup) => void;
}) {
  const remove = useDeleteBackup({ errorTitle: 'The backup was not deleted' });
  if (!backup) return null;
  const made = dateTime(backup.createdAt);
  return (
    <ConfirmDialog
      confirmation={{
        title: 'Delete this backup?',
        body: (
          <div className="space-y-3">
            <p>
              The backup of <strong>{backup.accountGroupName}</strong> ({backup.organizationName}), made {made} by{' '}
              {backup.requestedBy}
              {backup.items === null ? '' : `: ${backup.items} ${backup.items === 1 ? 'item' : 'items'}`}
              {backup.size === null ? '' : `, ${kilobytes(backup.size)}`}.
            </p>
            <p>
              Its archive is deleted from the server too, and this cannot be undone. A copy you downloaded stays yours.
            </p>
          </div>
        ),
        confirm: 'Delete Backup',
        busy: 'Deleting',
        run: () =>
          remove.mutateAsync(backup.id).then(() => {
            toast.success(`Deleted the backup of ${backup.accountGroupName} made ${made}`);
            onDeleted(backup);
            onClose();
          }),
      }}
      busy={remove.isPending}
      onCancel={onClose}
      // A failure is said by the query client's error toast; the dialog stays open.
      onConfirm={(chosen) => void chosen.run().catch(() => undefined)}
    />
  );
}
