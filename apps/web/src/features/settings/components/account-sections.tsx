import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { changePasswordFormSchema, type SessionUser } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirmation } from '../../../components/ui/confirm-dialog';
import { TextInput } from '../../../components/ui/field';
import { NewPasswordFields } from '../../../components/ui/new-password-fields';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { useAppInfo } from '../../../lib/session';
import { useChangePassword } from '../api/change-password';
import { useEndMySession } from '../api/end-my-session';
import { useMySessions } from '../api/my-sessions';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import { SignOutEverywhere } from './sign-out-everywhere';
import { dateTime } from '../../../lib/dates';

const section = 'rounded-lg border border-slate-200 bg-white p-5';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);

export function ProfileSection({ user }: { user: SessionUser }) {
  return (
    <section className={section} aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-lg font-medium">
        Profile
      </h2>
      <dl className="mt-3 grid grid-cols-[8rem_minmax(0,1fr)] gap-y-2 text-sm [overflow-wrap:anywhere]">
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

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}
const EMPTY_PASSWORDS: PasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };
/** One problem at a time, in the order of the fields (spec section 5's messages). */
const firstProblem = (errors: FieldErrors<PasswordValues>) =>
  errors.oldPassword?.message ?? errors.newPassword?.message ?? errors.confirmPassword?.message ?? null;

export function ChangePasswordSection() {
  const [problem, setProblem] = useState<string | null>(null);
  const changePassword = useChangePassword(SHOWN_IN_PLACE);
  const policy = useAppInfo().data?.passwordPolicy;
  const form = useForm<PasswordValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: EMPTY_PASSWORDS,
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const { errors } = form.formState;

  const submit = form.handleSubmit(
    ({ oldPassword, newPassword: chosen }) => {
      setProblem(null);
      changePassword.mutate(
        { oldPassword, newPassword: chosen },
        {
          onSuccess: ({ message }) => {
            toast.success(message);
            form.reset(EMPTY_PASSWORDS);
          },
          onError: (error) => setProblem(errorText(error, 'Failed to change password')),
        },
      );
    },
    (invalid) => setProblem(firstProblem(invalid)),
  );

  return (
    <section className={section} aria-labelledby="password-heading">
      <h2 id="password-heading" className="text-lg font-medium">
        Change password
      </h2>
      <form onSubmit={submit} noValidate className="mt-3 grid max-w-sm gap-3">
        <TextInput
          label="Current password"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.oldPassword) || undefined}
          {...form.register('oldPassword')}
        />
        <NewPasswordFields
          policy={policy}
          password={newPassword}
          newPassword={form.register('newPassword')}
          confirmPassword={form.register('confirmPassword')}
          invalid={{ newPassword: Boolean(errors.newPassword), confirmPassword: Boolean(errors.confirmPassword) }}
        />
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
        <div>
          <Button type="submit" variant="primary" size="sm" busy={changePassword.isPending} busyLabel="Changing">
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}

export function SessionsSection() {
  const sessions = useMySessions();
  const endSession = useEndMySession({ errorMessage: (error) => errorText(error, 'Could not end the session') });
  const confirmation = useConfirmation();
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
                  <Badge tone="info" className="ml-2">
                    This device
                  </Badge>
                )}
                {session.method === 'sso' && <Badge className="ml-2">SSO</Badge>}
              </p>
              <p className="text-slate-500">
                {session.ipAddress ?? 'unknown address'} · last seen {dateTime(session.lastSeenAt)}
              </p>
            </div>
            {!session.current && (
              <Button
                size="sm"
                busy={endSession.isPending && endSession.variables === session.id}
                busyLabel="Ending"
                onClick={() =>
                  confirmation.ask({
                    title: `End the session on ${session.device}?`,
                    body: `That device (${session.ipAddress ?? 'unknown address'}) is signed out at once and must sign in again. This device stays signed in.`,
                    confirm: 'End session',
                    busy: 'Ending',
                    run: () => endSession.mutateAsync(session.id).then(() => toast.success('Session ended')),
                  })
                }
              >
                End session
              </Button>
            )}
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <SignOutEverywhere />
      </div>
      {confirmation.dialog}
    </section>
  );
}
