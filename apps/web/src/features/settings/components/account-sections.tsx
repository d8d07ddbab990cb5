import { useState, type FormEvent } from 'react';
import type { SessionUser } from '@ce/contract';
import { newPasswordProblem, NewPasswordFields } from '../../../components/ui/new-password-fields';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { useAppInfo } from '../../../lib/session';
import { useChangePassword, useEndSession, useMySessions } from '../api/settings-api';

const section = 'rounded-lg border border-slate-200 bg-white p-5';
const button =
  'rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800 disabled:opacity-60';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);

export function ProfileSection({ user }: { user: SessionUser }) {
  return (
    <section className={section} aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-lg font-medium">
        Profile
      </h2>
      <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
        <dt className="text-slate-500">Name</dt>
        <dd>{user.name ?? '—'}</dd>
        <dt className="text-slate-500">Email</dt>
        <dd>{user.email}</dd>
        <dt className="text-slate-500">Role</dt>
        <dd data-testid="profile-role">{user.role}</dd>
      </dl>
    </section>
  );
}

export function ChangePasswordSection() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const changePassword = useChangePassword();
  const policy = useAppInfo().data?.passwordPolicy;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const issue = oldPassword === '' ? 'Password cannot be empty' : newPasswordProblem(newPassword, confirmPassword);
    setProblem(issue);
    if (issue) return;
    changePassword.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: ({ message }) => {
          toast.success(message);
          setOldPassword('');
          setNewPassword('');
          setConfirmPassword('');
        },
        onError: (error) => setProblem(errorText(error, 'Failed to change password')),
      },
    );
  };

  return (
    <section className={section} aria-labelledby="password-heading">
      <h2 id="password-heading" className="text-lg font-medium">
        Change password
      </h2>
      <form onSubmit={handleSubmit} noValidate className="mt-3 grid max-w-sm gap-3">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onValueChange={setOldPassword}
        />
        <NewPasswordFields
          policy={policy}
          newPassword={newPassword}
          confirmPassword={confirmPassword}
          onNewPasswordChange={setNewPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
        <div>
          <button type="submit" className={button} disabled={changePassword.isPending}>
            {changePassword.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}

export function SessionsSection() {
  const sessions = useMySessions();
  const endSession = useEndSession();
  return (
    <section className={section} aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="text-lg font-medium">
        Active sessions
      </h2>
      {sessions.isPending && <p className="mt-2 text-sm text-slate-500">Loading…</p>}
      {sessions.isError && <p className="mt-2 text-sm text-red-700">Could not load your sessions.</p>}
      <ul className="mt-3 divide-y divide-slate-100" aria-label="Your sessions">
        {sessions.data?.map((session) => (
          <li key={session.id} className="flex items-center gap-3 py-2 text-sm" data-testid="session-row">
            <div className="flex-1">
              <p className="font-medium">
                {session.device}
                {session.current && (
                  <span className="ml-2 rounded bg-brand-100 px-1.5 text-xs text-brand-800">This device</span>
                )}
                {session.method === 'sso' && (
                  <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs text-slate-700">SSO</span>
                )}
              </p>
              <p className="text-slate-500">
                {session.ipAddress ?? 'unknown address'} · last seen {new Date(session.lastSeenAt).toLocaleString()}
              </p>
            </div>
            {!session.current && (
              <button
                type="button"
                className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
                disabled={endSession.isPending}
                onClick={() =>
                  endSession.mutate(session.id, {
                    onSuccess: () => toast.success('Session ended'),
                    onError: (error) => toast.error(errorText(error, 'Could not end the session')),
                  })
                }
              >
                End session
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
