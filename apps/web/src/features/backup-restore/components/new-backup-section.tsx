import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { BACKUP_MESSAGES, PATHS, type Backup } from '@ce/contract';
import { CustomerFields } from '../../../components/customer-fields';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { toast, type ToastLink } from '../../../components/ui/toast-store';
import { customerTokenErrors } from '../../../lib/error-toasts';
import type { Customer } from '../../../lib/use-customer';
import { useCreateBackups } from '../api/create';
import { backupFormSchema, type BackupForm } from '../backup-forms';

/** The address parameter that opens one backup on the Backup & Restore page. */
export const BACKUP_PARAM = 'backup';

/** Where one backup is opened: the Backup & Restore page with `?backup=<id>` (the customer's page links there too). */
export const backupHref = (id: string) => `${PATHS.backupRestore}?${BACKUP_PARAM}=${encodeURIComponent(id)}`;

/** What opens a backup just started: "Open the backup", or which one when several started. */
const openWords = (backup: Backup, several: boolean) =>
  several ? `Open the backup of ${backup.accountGroupName}` : 'Open the backup';

/** The toast a Back Up starts with (the words it always had), linked to the backup it started. */
export function backupStartToast(made: Backup[]): { message: string; link?: ToastLink } {
  const [first] = made;
  return {
    message: `Backing up ${made.length} account group${made.length === 1 ? '' : 's'}`,
    ...(first ? { link: { to: backupHref(first.id), label: openWords(first, made.length > 1) } } : {}),
  };
}

/** Back up: a customer's token, the account groups to back up (a form over the contract's schema), and Back Up. */
export function NewBackupSection({ customer }: { customer: Customer }) {
  const form = useForm<BackupForm>({ resolver: zodResolver(backupFormSchema), defaultValues: { accountGroups: [] } });
  const { field } = useController({ control: form.control, name: 'accountGroups' });
  const selected = useMemo(() => new Set(field.value.map((group) => group.aid)), [field.value]);
  const create = useCreateBackups(customerTokenErrors('Failed to start the backup'));
  // The backups the last Back Up started, each linked from the page as from its toast.
  const [started, setStarted] = useState<Backup[]>([]);

  const backUp = form.handleSubmit(
    ({ accountGroups }) => {
      if (!customer.organization) return;
      create.mutate(
        { token: customer.token, organization: customer.organization, accountGroups },
        {
          onSuccess: ({ backups: made }) => {
            setStarted(made);
            const { message, link } = backupStartToast(made);
            toast.success(message, link ? { link } : {});
          },
        },
      );
    },
    (errors) => toast.error(errors.accountGroups?.message ?? BACKUP_MESSAGES.groupsRequired),
  );

  return (
    <section className="space-y-3" aria-label="New backup">
      <h2 className="text-xl font-semibold">Back up</h2>
      <CustomerFields customer={customer} label="OAuth Token" name="token" />
      {customer.groups && (
        <>
          <CheckList
            items={customer.inOrganization}
            itemKey={(group) => group.aid}
            renderItem={(group) => group.accountGroupName}
            matches={(group, needle) => group.accountGroupName.toLowerCase().includes(needle)}
            selected={selected}
            onSelectedChange={(next) => field.onChange([...next].map((aid) => ({ aid })))}
            label="Account groups"
            searchLabel="Search account groups"
            noun="Groups"
          />
          <Button variant="primary" busy={create.isPending} busyLabel="Starting" onClick={() => void backUp()}>
            Back Up Selected Groups
          </Button>
          {started.length > 0 && (
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Backups started">
              {started.map((backup) => (
                <li key={backup.id}>
                  <Link to={backupHref(backup.id)} className="text-brand-700 underline">
                    {openWords(backup, started.length > 1)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
