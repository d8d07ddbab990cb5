import { useState, type FormEvent } from 'react';
import { newPasswordProblem, NewPasswordFields } from '../../../components/ui/new-password-fields';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { ApiRequestError } from '../../../lib/api-client';
import {
  useAppInfo,
  useCompleteNewPassword,
  useConfirmPasswordReset,
  useLogin,
  useRequestPasswordReset,
} from '../../../lib/session';

export interface LoginFormProps {
  onSignedIn: () => void;
  /** A message to show at once, for example why a single sign-on did not finish. */
  initialError?: string | null;
}

type Mode = 'login' | 'new-password' | 'forgot' | 'reset';
type Status = { kind: 'info' | 'error' | 'success'; text: string } | null;

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError && error.status !== 0
    ? error.message
    : error instanceof Error
      ? error.message || fallback
      : fallback;

const primaryButton =
  'flex w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60';
const linkButton = 'text-brand-700 underline hover:text-brand-800';

/**
 * Sign-in and its other steps: the new password a temporary password requires, and the reset by
 * a mailed code. The status line says what is happening or what went wrong.
 */
export function LoginForm({ onSignedIn, initialError = null }: LoginFormProps) {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [code, setCode] = useState('');
  const [challenge, setChallenge] = useState('');
  const [status, setStatus] = useState<Status>(initialError ? { kind: 'error', text: initialError } : null);
  const appInfo = useAppInfo();
  const login = useLogin();
  const completeNewPassword = useCompleteNewPassword();
  const requestReset = useRequestPasswordReset();
  const confirmReset = useConfirmPasswordReset();
  const policy = appInfo.data?.passwordPolicy;
  const isBusy = login.isPending || completeNewPassword.isPending || requestReset.isPending || confirmReset.isPending;

  const switchTo = (next: Mode, nextStatus: Status = null) => {
    setMode(next);
    setNewPassword('');
    setConfirmPassword('');
    setCode('');
    setStatus(nextStatus);
  };

  const newPasswordsProblem = () => newPasswordProblem(newPassword, confirmPassword);

  const handleLogin = () => {
    if (email.trim() === '') return setStatus({ kind: 'error', text: 'Username cannot be empty' });
    if (password === '') return setStatus({ kind: 'error', text: 'Password cannot be empty' });
    setStatus({ kind: 'info', text: 'Signing in…' });
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (response) => {
          if ('challenge' in response) {
            setChallenge(response.session);
            setPassword('');
            switchTo('new-password', { kind: 'info', text: 'Choose a new password to finish signing in.' });
            return;
          }
          setStatus(null);
          onSignedIn();
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'already_signed_in') return onSignedIn();
          setStatus({ kind: 'error', text: messageOf(error, 'Error Signing In') });
        },
      },
    );
  };

  const handleNewPassword = () => {
    const problem = newPasswordsProblem();
    if (problem) return setStatus({ kind: 'error', text: problem });
    setStatus({ kind: 'info', text: 'Saving your new password…' });
    completeNewPassword.mutate(
      { session: challenge, newPassword },
      {
        onSuccess: () => {
          setStatus(null);
          onSignedIn();
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'challenge_expired') {
            return switchTo('login', { kind: 'error', text: error.message });
          }
          setStatus({ kind: 'error', text: messageOf(error, 'Failed to change password') });
        },
      },
    );
  };

  const handleForgot = () => {
    if (email.trim() === '') return setStatus({ kind: 'error', text: 'Username cannot be empty' });
    setStatus({ kind: 'info', text: 'Sending a code…' });
    requestReset.mutate(email.trim(), {
      onSuccess: ({ message }) => switchTo('reset', { kind: 'success', text: message }),
      onError: (error) => setStatus({ kind: 'error', text: messageOf(error, 'Could not send a code') }),
    });
  };

  const handleReset = () => {
    if (email.trim() === '') return setStatus({ kind: 'error', text: 'Username cannot be empty' });
    if (code.trim() === '') return setStatus({ kind: 'error', text: 'Confirmation code cannot be empty' });
    const problem = newPasswordsProblem();
    if (problem) return setStatus({ kind: 'error', text: problem });
    setStatus({ kind: 'info', text: 'Resetting your password…' });
    confirmReset.mutate(
      { email: email.trim(), code: code.trim(), newPassword },
      {
        onSuccess: ({ message }) => {
          setPassword('');
          switchTo('login', { kind: 'success', text: message });
        },
        onError: (error) => setStatus({ kind: 'error', text: messageOf(error, 'Failed to change password') }),
      },
    );
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    if (mode === 'login') handleLogin();
    else if (mode === 'new-password') handleNewPassword();
    else if (mode === 'forgot') handleForgot();
    else handleReset();
  };

  const supportEmail = appInfo.data?.supportEmail;
  const newPasswordFields = (
    <NewPasswordFields
      policy={policy}
      newPassword={newPassword}
      confirmPassword={confirmPassword}
      onNewPasswordChange={setNewPassword}
      onConfirmPasswordChange={setConfirmPassword}
    />
  );

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-4" aria-label="Sign in">
      {(mode === 'login' || mode === 'forgot' || mode === 'reset') && (
        <TextField
          label="Username"
          name="username"
          type="email"
          autoComplete="username"
          placeholder="name@company.com"
          value={email}
          onValueChange={setEmail}
          readOnly={mode === 'reset'}
        />
      )}
      {mode === 'login' && (
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
        />
      )}
      {mode === 'new-password' && newPasswordFields}
      {mode === 'reset' && (
        <>
          <TextField
            label="Confirmation code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="XXXX-XXXX-XXXX"
            value={code}
            onValueChange={setCode}
          />
          {newPasswordFields}
        </>
      )}

      {mode === 'login' && (
        <button type="submit" disabled={isBusy} className={primaryButton}>
          {login.isPending && <Spinner label="Signing in" className="h-4 w-4" />}
          Login
        </button>
      )}
      {mode === 'new-password' && (
        <button type="submit" disabled={isBusy} className={primaryButton}>
          {completeNewPassword.isPending && <Spinner label="Saving" className="h-4 w-4" />}
          Confirm New Password
        </button>
      )}
      {mode === 'forgot' && (
        <button type="submit" disabled={isBusy} className={primaryButton}>
          {requestReset.isPending && <Spinner label="Sending" className="h-4 w-4" />}
          Send code
        </button>
      )}
      {mode === 'reset' && (
        <button type="submit" disabled={isBusy} className={primaryButton}>
          {confirmReset.isPending && <Spinner label="Resetting" className="h-4 w-4" />}
          Reset password
        </button>
      )}

      <p
        role={status?.kind === 'error' ? 'alert' : 'status'}
        data-testid="login-status"
        className={`min-h-5 text-sm ${status?.kind === 'error' ? 'text-red-700' : status?.kind === 'success' ? 'text-green-700' : 'text-slate-600'}`}
      >
        {status?.text}
      </p>

      {mode === 'login' && appInfo.data?.sso.enabled && (
        <a
          href="/api/sso/login"
          className="flex w-full justify-center rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50"
        >
          {appInfo.data.sso.label}
        </a>
      )}

      <div className="flex justify-between text-sm">
        {mode === 'login' && appInfo.data?.passwordResetEnabled && (
          <button type="button" className={linkButton} onClick={() => switchTo('forgot')}>
            Forgot password?
          </button>
        )}
        {mode !== 'login' && (
          <button type="button" className={linkButton} onClick={() => switchTo('login')}>
            Back to sign in
          </button>
        )}
        <a href={supportEmail ? `mailto:${supportEmail}` : undefined} className={linkButton}>
          Need Support?
        </a>
      </div>
      {appInfo.data?.demoMode && mode === 'login' && (
        <p className="rounded-md bg-slate-100 p-3 text-xs text-slate-600">
          Demo installation: sign in as tam@demo.local, superuser@demo.local, proserv@demo.local, adoption@demo.local,
          pmo@demo.local, engineering@demo.local, support@demo.local, t3@demo.local or user@demo.local with the demo
          password.
        </p>
      )}
    </form>
  );
}
