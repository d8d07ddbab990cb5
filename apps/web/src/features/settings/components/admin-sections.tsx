import { useState, type FormEvent } from 'react';
import { ROLES, type Role, type SessionUser } from '@ce/contract';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { useAuditLog, useInviteUser, useUpdateUser, useUsers } from '../api/settings-api';

const section = 'rounded-lg border border-slate-200 bg-white p-5';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);

/** Super User: invite with a role (the temporary password is shown once), change role, disable, enable. */
export function UsersSection({ currentUser }: { currentUser: SessionUser }) {
  const users = useUsers(true);
  const invite = useInviteUser();
  const update = useUpdateUser();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('TAM');
  const [created, setCreated] = useState<{ email: string; temporaryPassword: string } | null>(null);

  const handleInvite = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
      {
        onSuccess: ({ user, temporaryPassword }) => {
          setCreated({ email: user.email, temporaryPassword });
          setEmail('');
          setName('');
          toast.success(`Account created for ${user.email}`);
        },
        onError: (error) => toast.error(errorText(error, 'Could not create the account')),
      },
    );
  };

  const change = (id: string, changes: { role?: Role; disabled?: boolean }) =>
    update.mutate(
      { id, ...changes },
      { onError: (error) => toast.error(errorText(error, 'Could not change the account')) },
    );

  return (
    <section className={section} aria-labelledby="users-heading">
      <h2 id="users-heading" className="text-lg font-medium">
        Users
      </h2>
      <form onSubmit={handleInvite} className="mt-3 flex flex-wrap items-end gap-3" aria-label="Invite a user">
        <TextField label="Email" type="email" value={email} onValueChange={setEmail} required />
        <TextField label="Name" value={name} onValueChange={setName} />
        <div>
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-700">
            Role
          </label>
          <select
            id="invite-role"
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
            className="mt-1 rounded-md border border-slate-300 px-2 py-2"
          >
            {ROLES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={invite.isPending}
          className="rounded-md bg-brand-700 px-3 py-2 text-sm font-medium text-white disabled:opacity-60"
        >
          Invite
        </button>
      </form>
      {created && (
        <div role="status" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
          Temporary password for {created.email} (shown once):{' '}
          <code data-testid="temporary-password">{created.temporaryPassword}</code>. They choose their own at first
          sign-in.
        </div>
      )}
      <table className="mt-4 w-full text-left text-sm">
        <thead className="text-slate-500">
          <tr>
            <th className="py-1">Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Status</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.data?.map((user) => {
            const isSelf = user.id === currentUser.id;
            return (
              <tr key={user.id} className="border-t border-slate-100" data-testid="user-row">
                <td className="py-1.5">{user.email}</td>
                <td>{user.name ?? '—'}</td>
                <td>
                  <select
                    aria-label={`Role of ${user.email}`}
                    value={user.role}
                    disabled={isSelf}
                    onChange={(event) => change(user.id, { role: event.target.value as Role })}
                    className="rounded border border-slate-300 px-1 py-0.5"
                  >
                    {ROLES.map((option) => (
                      <option key={option}>{option}</option>
                    ))}
                  </select>
                </td>
                <td>{user.disabled ? 'Disabled' : 'Active'}</td>
                <td className="text-right">
                  {!isSelf && (
                    <button
                      type="button"
                      className="rounded border border-slate-300 px-2 py-0.5 text-xs"
                      onClick={() => change(user.id, { disabled: !user.disabled })}
                    >
                      {user.disabled ? 'Enable' : 'Disable'}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function AuditLogSection() {
  const entries = useAuditLog(true);
  return (
    <section className={section} aria-labelledby="audit-heading">
      <h2 id="audit-heading" className="text-lg font-medium">
        Audit log
      </h2>
      {entries.data?.length === 0 && <p className="mt-2 text-sm text-slate-500">No administrative action yet.</p>}
      <table className="mt-3 w-full text-left text-sm">
        <tbody>
          {entries.data?.map((entry) => (
            <tr key={entry.id} className="border-t border-slate-100" data-testid="audit-row">
              <td className="py-1.5 text-slate-500">{new Date(entry.createdAt).toLocaleString()}</td>
              <td>{entry.actorEmail}</td>
              <td className="font-medium">{entry.action}</td>
              <td>{entry.target}</td>
              <td className="text-slate-500">
                {entry.detail && Object.keys(entry.detail).length ? JSON.stringify(entry.detail) : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
