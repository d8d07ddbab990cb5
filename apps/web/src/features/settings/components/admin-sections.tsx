import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  inviteUserInputSchema,
  ROLES,
  type AuditEntry,
  type InviteUserInput,
  type Role,
  type SessionUser,
  type UserAccount,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Select, TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { useAuditLog } from '../api/audit-log';
import { useInviteUser } from '../api/invite-user';
import { useUpdateUser } from '../api/update-user';
import { useUsers } from '../api/users';
import { AccountChangeDialog, type AccountChange } from './account-change-dialog';
import { dateTime } from '../../../lib/dates';

const section = 'rounded-lg border border-slate-200 bg-white p-5';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: role }));
const isRole = (value: string): value is Role => ROLES.some((role) => role === value);

/** The invitation: an email, a name if known, a role; the server answers with a temporary password. */
function InviteForm({ onInvited }: { onInvited: (created: { email: string; temporaryPassword: string }) => void }) {
  const invite = useInviteUser({ errorMessage: (error) => errorText(error, 'Could not create the account') });
  const form = useForm<InviteUserInput>({
    resolver: zodResolver(inviteUserInputSchema),
    defaultValues: { email: '', name: '', role: 'TAM' },
  });
  const submit = form.handleSubmit(({ name, ...input }) =>
    invite.mutate(
      { ...input, ...(name ? { name } : {}) },
      {
        onSuccess: ({ user, temporaryPassword }) => {
          onInvited({ email: user.email, temporaryPassword });
          form.reset();
          toast.success(`Account created for ${user.email}`);
        },
      },
    ),
  );
  const { errors } = form.formState;
  return (
    <form onSubmit={submit} noValidate className="mt-3 flex flex-wrap items-start gap-3" aria-label="Invite a user">
      <TextInput
        label="Email"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextInput label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <Select label="Role" options={ROLE_OPTIONS} {...form.register('role')} />
      <Button type="submit" variant="primary" className="mt-6" busy={invite.isPending} busyLabel="Inviting">
        Invite
      </Button>
    </form>
  );
}

/** Super User: invite with a role (the temporary password is shown once), change role, disable, enable. */
export function UsersSection({ currentUser }: { currentUser: SessionUser }) {
  const users = useUsers();
  const { mutate: updateUser, isPending: updating } = useUpdateUser({
    errorMessage: (error) => errorText(error, 'Could not change the account'),
  });
  const [created, setCreated] = useState<{ email: string; temporaryPassword: string } | null>(null);
  // Disabling an account or changing its role asks first; enabling one does not take anything away.
  const [asking, setAsking] = useState<AccountChange | null>(null);
  const confirm = (change: AccountChange) =>
    updateUser(
      { id: change.user.id, ...(change.kind === 'disable' ? { disabled: true } : { role: change.role }) },
      {
        onSuccess: () => {
          setAsking(null);
          toast.success(
            change.kind === 'disable'
              ? `${change.user.email} is disabled`
              : `${change.user.email} is ${change.role} now`,
          );
        },
      },
    );

  const columns = useMemo<ColumnDef<UserAccount, unknown>[]>(() => {
    const enable = (user: UserAccount) =>
      updateUser({ id: user.id, disabled: false }, { onSuccess: () => toast.success(`${user.email} is enabled`) });
    return [
      { id: 'email', header: 'Email', accessorFn: (user) => user.email },
      { id: 'name', header: 'Name', accessorFn: (user) => user.name ?? '—' },
      {
        id: 'role',
        header: 'Role',
        accessorFn: (user) => user.role,
        cell: ({ row: { original: user } }) => (
          <select
            aria-label={`Role of ${user.email}`}
            value={user.role}
            disabled={user.id === currentUser.id}
            onChange={(event) => {
              const role = event.target.value;
              if (isRole(role) && role !== user.role) setAsking({ kind: 'role', user, role });
            }}
            className="rounded border border-slate-300 px-1 py-0.5"
          >
            {ROLES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        accessorFn: (user) => (user.disabled ? 'Disabled' : 'Active'),
        cell: ({ row: { original: user } }) => (
          <Badge tone={user.disabled ? 'neutral' : 'success'}>{user.disabled ? 'Disabled' : 'Active'}</Badge>
        ),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        enableGlobalFilter: false,
        cell: ({ row: { original: user } }) =>
          user.id === currentUser.id ? null : (
            <Button size="sm" onClick={() => (user.disabled ? enable(user) : setAsking({ kind: 'disable', user }))}>
              {user.disabled ? 'Enable' : 'Disable'}
            </Button>
          ),
      },
    ];
  }, [currentUser.id, updateUser]);

  return (
    <section className={section} aria-labelledby="users-heading">
      <h2 id="users-heading" className="text-lg font-medium">
        Users
      </h2>
      <InviteForm onInvited={setCreated} />
      {created && (
        <div className="mt-3">
          <Banner tone="warning">
            Temporary password for {created.email} (shown once):{' '}
            <code data-testid="temporary-password">{created.temporaryPassword}</code>. They choose their own at first
            sign-in.
          </Banner>
        </div>
      )}
      <div className="mt-4">
        <DataTable
          label="Users"
          data={users.data ?? []}
          columns={columns}
          getRowId={(user) => user.id}
          initialSorting={[{ id: 'email', desc: false }]}
          filterLabel="Search users"
          empty={users.isPending ? 'Loading…' : users.isError ? 'The users could not be loaded.' : 'No user matches.'}
          rowProps={() => ({ 'data-testid': 'user-row' })}
        />
      </div>
      <AccountChangeDialog change={asking} busy={updating} onCancel={() => setAsking(null)} onConfirm={confirm} />
    </section>
  );
}

const AUDIT_COLUMNS: ColumnDef<AuditEntry, unknown>[] = [
  {
    id: 'when',
    header: 'When',
    accessorFn: (entry) => entry.createdAt,
    cell: ({ row: { original: entry } }) => (
      <time dateTime={entry.createdAt} className="text-slate-500 md:whitespace-nowrap">
        {dateTime(entry.createdAt)}
      </time>
    ),
  },
  { id: 'actor', header: 'Who', accessorFn: (entry) => entry.actorEmail },
  {
    id: 'action',
    header: 'Action',
    accessorFn: (entry) => entry.action,
    cell: ({ row: { original: entry } }) => <span className="font-medium">{entry.action}</span>,
  },
  { id: 'target', header: 'Target', accessorFn: (entry) => entry.target ?? '' },
  {
    id: 'detail',
    header: 'Detail',
    enableSorting: false,
    accessorFn: (entry) => (entry.detail && Object.keys(entry.detail).length ? JSON.stringify(entry.detail) : ''),
    cell: ({ getValue }) => <span className="text-slate-500">{String(getValue())}</span>,
  },
];

export function AuditLogSection() {
  const entries = useAuditLog();
  return (
    <section className={section} aria-labelledby="audit-heading">
      <h2 id="audit-heading" className="text-lg font-medium">
        Audit log
      </h2>
      <div className="mt-3">
        <DataTable
          label="Audit log"
          data={entries.data ?? []}
          columns={AUDIT_COLUMNS}
          getRowId={(entry) => String(entry.id)}
          initialSorting={[{ id: 'when', desc: true }]}
          filterLabel="Search the audit log"
          maxHeight={480}
          empty={
            entries.isPending
              ? 'Loading…'
              : entries.isError
                ? 'The audit log could not be loaded.'
                : 'No administrative action yet.'
          }
          rowProps={() => ({ 'data-testid': 'audit-row' })}
        />
      </div>
    </section>
  );
}
