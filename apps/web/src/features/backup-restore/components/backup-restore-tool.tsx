import { useState } from 'react';
import type { Backup } from '@ce/contract';
import { FilePicker } from '../../../components/ui/file-picker';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { customerTokenErrors } from '../../../lib/error-toasts';
import { useCustomer } from '../../../lib/use-customer';
import { useRunParam } from '../../../lib/use-run-param';
import { useBackups } from '../api/backups';
import { useUploadBackup } from '../api/upload';
import { BackupPanel } from './backup-panel';
import { BackupsTable } from './backups-table';
import { NewBackupSection } from './new-backup-section';
import { DeleteBackupDialog } from './delete-backup';
import { RestoreRunPanel } from './restore-run';

/**
 * Backup & Restore: back up account groups with a customer's token; the backups (search, sort, download,
 * upload one back, delete one); one backup compared with the live group or another backup, and its changes restored.
 */
export function BackupRestoreTool() {
  const customer = useCustomer('backup-restore');
  const [opened, setOpened] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<Backup | null>(null);
  // The restore shown lives in the address (?run=<id>), as every tool's run: the customer's page and the
  // notifications link to it there.
  const [restoreId, openRestore] = useRunParam();
  const [targetToken, setTargetToken] = useState('');
  const { data: backups } = useBackups({ search: '', sort: 'createdAt', direction: 'desc' });
  const upload = useUploadBackup(customerTokenErrors('Failed to upload the archive'));
  const [pickerKey, setPickerKey] = useState(0);

  return (
    <div className="space-y-8">
      <NewBackupSection customer={customer} />

      <section className="space-y-3" aria-label="Backups">
        <h2 className="text-xl font-semibold">Backups</h2>
        {backups ? (
          <BackupsTable backups={backups} onOpen={setOpened} onDelete={setDeleting} />
        ) : (
          <Spinner label="Loading backups" />
        )}
        <DeleteBackupDialog
          backup={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(gone) => setOpened((current) => (current?.id === gone.id ? null : current))}
        />
        <FilePicker
          key={pickerKey}
          label="Upload a backup archive"
          hint="A zip downloaded from here before; it is checked whole (manifest and every file's checksum) before it is kept."
          onFile={(file) => {
            if (file)
              upload.mutate(file, {
                onSuccess: (kept) => {
                  toast.success(`Kept the backup of ${kept.accountGroupName}`);
                  setPickerKey((key) => key + 1);
                },
              });
          }}
        />
      </section>

      {opened && (
        <BackupPanel
          key={opened.id}
          backup={opened}
          backups={backups ?? []}
          token={customer.token}
          groups={customer.organizationId === opened.organizationId ? customer.inOrganization : []}
          onRestore={(id, otherToken) => {
            setTargetToken(otherToken);
            openRestore(id);
          }}
        />
      )}
      {restoreId && (
        <RestoreRunPanel
          key={restoreId}
          runId={restoreId}
          token={customer.token}
          targetToken={targetToken}
          onOpen={openRestore}
        />
      )}
    </div>
  );
}
