import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
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
import { BACKUP_PARAM, NewBackupSection } from './new-backup-section';
import { DeleteBackupDialog } from './delete-backup';
import { RestoreRunPanel } from './restore-run';

/**
 * Backup & Restore: back up account groups with a customer's token; the backups (search, sort, download,
 * upload one back, delete one); one backup compared with the live group or another backup, and its changes restored.
 */
export function BackupRestoreTool() {
  const customer = useCustomer('backup-restore');
  // The backup opened lives in the address too (?backup=<id>): the start toast and the customer's page link to it.
  const [params, setParams] = useSearchParams();
  const openedId = params.get(BACKUP_PARAM);
  const open = useCallback(
    (backup: Backup | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (backup) next.set(BACKUP_PARAM, backup.id);
        else next.delete(BACKUP_PARAM);
        return next;
      }),
    [setParams],
  );
  const [deleting, setDeleting] = useState<Backup | null>(null);
  // The restore shown lives in the address (?run=<id>), as every tool's run: the customer's page and the
  // notifications link to it there.
  const [restoreId, openRestore] = useRunParam();
  const [targetToken, setTargetToken] = useState('');
  const { data: backups } = useBackups({ search: '', sort: 'createdAt', direction: 'desc' });
  const upload = useUploadBackup(customerTokenErrors('Failed to upload the archive'));
  const [pickerKey, setPickerKey] = useState(0);
  // Open on a backup's row starts its panel afresh (also when the address had it open already).
  const [openings, setOpenings] = useState(0);
  const opened = (openedId && backups?.find((backup) => backup.id === openedId)) || null;
  // A backup opened from its row is brought into view (it opens below the list, often off the screen).
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (openings > 0) panel.current?.scrollIntoView({ block: 'start' });
  }, [openings, opened?.id]);

  return (
    <div className="space-y-8">
      <NewBackupSection customer={customer} />

      <section className="space-y-3" aria-label="Backups">
        <h2 className="text-xl font-semibold">Backups</h2>
        {backups ? (
          <BackupsTable
            backups={backups}
            onOpen={(backup) => {
              setOpenings((count) => count + 1);
              open(backup);
            }}
            onDelete={setDeleting}
          />
        ) : (
          <Spinner label="Loading backups" />
        )}
        <DeleteBackupDialog
          backup={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(gone) => {
            if (gone.id === openedId) open(null);
          }}
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

      <div ref={panel} className={opened ? 'scroll-mt-4' : 'hidden'}>
        {opened && (
          <BackupPanel
            key={`${opened.id}:${openings}`}
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
      </div>
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
