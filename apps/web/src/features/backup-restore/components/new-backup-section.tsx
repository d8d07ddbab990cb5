import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useController, useForm } from 'react-hook-form';
import { BACKUP_MESSAGES } from '@ce/contract';
import { CustomerFields } from '../../../components/customer-fields';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { toast } from '../../../components/ui/toast-store';
import { customerTokenErrors } from '../../../lib/error-toasts';
import type { Customer } from '../../../lib/use-customer';
import { useCreateBackups } from '../api/create';
import { backupFormSchema, type BackupForm } from '../backup-forms';

/** Back up: a customer's token, the account groups to back up (a form over the contract's schema), and Back Up. */
export function NewBackupSection({ customer }: { customer: Customer }) {
  const form = useForm<BackupForm>({ resolver: zodResolver(backupFormSchema), defaultValues: { accountGroups: [] } });
  const { field } = useController({ control: form.control, name: 'accountGroups' });
  const selected = useMemo(() => new Set(field.value.map((group) => group.aid)), [field.value]);
  const create = useCreateBackups(customerTokenErrors('Failed to start the backup'));

  const backUp = form.handleSubmit(
    ({ accountGroups }) => {
      if (!customer.organization) return;
      create.mutate(
        { token: customer.token, organization: customer.organization, accountGroups },
        {
          onSuccess: ({ backups: made }) =>
            toast.success(`Backing up ${made.length} account group${made.length === 1 ? '' : 's'}`),
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
        </>
      )}
    </section>
  );
}
