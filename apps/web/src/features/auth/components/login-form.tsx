import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/field';
import { NewPasswordFields } from '../../../components/ui/new-password-fields';
import { ApiRequestError, loadErrorReader } from '../../../lib/api-client';
import {
  useAppInfo,
  useCompleteNewPassword,
  useConfirmPasswordReset,
  useLogin,
  useRequestPasswordReset,
} from '../../../lib/session';
import type { LoginMode as Mode, LoginValues as Values } from '../login-resolvers';

export interface LoginFormProps {
  onSignedIn: () => void;
  /** A message to show at once, for example why a single sign-on did not finish. */
  initialError?: string | null;
}

/**
 * The schemas come with the first check, not with the page: the sign-in page paints without the schema
 * library, which is fetched while the user types.
 */
const loadResolvers = () => import('../login-resolvers');
type Status = { kind: 'info' | 'error' | 'success'; text: string } | null;

const EMPTY: Values = { email: '', password: '', code: '', newPassword: '', confirmPassword: '' };

/** The status line says one thing: the first problem, in the order the fields are shown. */
const FIELD_ORDER: (keyof Values)[] = ['email', 'password', 'code', 'newPassword', 'confirmPassword'];
const firstProblem = (errors: FieldErrors<Values>) =>
  FIELD_ORDER.map((field) => errors[field]?.message).find((message) => message !== undefined);

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError && error.status !== 0
    ? error.message
    : error instanceof Error
      ? error.message || fallback
      : fallback;

const linkButton = 'text-brand-700 underline hover:text-brand-800';

/**
 * Sign-in and its other steps: the new password a temporary password requires, and the reset by
 * a mailed code. The status line says what is happening or what went wrong.
 */
export function LoginForm({ onSignedIn, initialError = null }: LoginFormProps) {
  const [mode, setMode] = useState<Mode>('login');
  // The resolver reads the step at submit time; it changes only in switchTo.
  const modeRef = useRef<Mode>('login');
  const [challenge, setChallenge] = useState('');
  const [status, setStatus] = useState<Status>(initialError ? { kind: 'error', text: initialError } : null);
  const form = useForm<Values>({
    defaultValues: EMPTY,
    resolver: async (values, context, options) =>
      (await loadResolvers()).LOGIN_RESOLVERS[modeRef.current](values, context, options),
  });
  useEffect(() => {
    const idle = window.setTimeout(() => void Promise.all([loadResolvers(), loadErrorReader()]), 0);
    return () => window.clearTimeout(idle);
  }, []);
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const errors = form.formState.errors;
  const appInfo = useAppInfo();
  const login = useLogin();
  const completeNewPassword = useCompleteNewPassword();
  const requestReset = useRequestPasswordReset();
  const confirmReset = useConfirmPasswordReset();
  const policy = appInfo.data?.passwordPolicy;
  const isBusy = login.isPending || completeNewPassword.isPending || requestReset.isPending || confirmReset.isPending;

  const switchTo = (next: Mode, nextStatus: Status = null) => {
    modeRef.current = next;
    setMode(next);
    form.reset({ ...form.getValues(), code: '', newPassword: '', confirmPassword: '' });
    setStatus(nextStatus);
  };

  const handleLogin = ({ email, password }: Values) => {
    setStatus({ kind: 'info', text: 'Signing in…' });
    login.mutate(
      { email, password },
      {
        onSuccess: (response) => {
          if ('challenge' in response) {
            setChallenge(response.session);
            form.setValue('password', '');
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

  const handleNewPassword = (values: Values) => {
    setStatus({ kind: 'info', text: 'Saving your new password…' });
    completeNewPassword.mutate(
      { session: challenge, newPassword: values.newPassword },
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

  const handleForgot = ({ email }: Values) => {
    setStatus({ kind: 'info', text: 'Sending a code…' });
    requestReset.mutate(email, {
      onSuccess: ({ message }) => switchTo('reset', { kind: 'success', text: message }),
      onError: (error) => setStatus({ kind: 'error', text: messageOf(error, 'Could not send a code') }),
    });
  };

  const handleReset = ({ email, code, newPassword: chosen }: Values) => {
    setStatus({ kind: 'info', text: 'Resetting your password…' });
    confirmReset.mutate(
      { email, code, newPassword: chosen },
      {
        onSuccess: ({ message }) => {
          form.setValue('password', '');
          switchTo('login', { kind: 'success', text: message });
        },
        onError: (error) => setStatus({ kind: 'error', text: messageOf(error, 'Failed to change password') }),
      },
    );
  };

  const HANDLERS: Record<Mode, (values: Values) => void> = {
    login: handleLogin,
    'new-password': handleNewPassword,
    forgot: handleForgot,
    reset: handleReset,
  };
  const submit = (event: FormEvent) =>
    void form.handleSubmit(
      (values) => {
        if (!isBusy) HANDLERS[mode](values);
      },
      (problems) => setStatus({ kind: 'error', text: firstProblem(problems) ?? 'Please check the form' }),
    )(event);

  const supportEmail = appInfo.data?.supportEmail;
  const newPasswordFields = (
    <NewPasswordFields
      policy={policy}
      password={newPassword}
      newPassword={form.register('newPassword')}
      confirmPassword={form.register('confirmPassword')}
      invalid={{ newPassword: Boolean(errors.newPassword), confirmPassword: Boolean(errors.confirmPassword) }}
    />
  );
  const SUBMIT: Record<Mode, { label: string; busy: boolean; busyLabel: string }> = {
    login: { label: 'Login', busy: login.isPending, busyLabel: 'Signing in' },
    'new-password': { label: 'Confirm New Password', busy: completeNewPassword.isPending, busyLabel: 'Saving' },
    forgot: { label: 'Send code', busy: requestReset.isPending, busyLabel: 'Sending' },
    reset: { label: 'Reset password', busy: confirmReset.isPending, busyLabel: 'Resetting' },
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Sign in">
      {(mode === 'login' || mode === 'forgot' || mode === 'reset') && (
        <TextInput
          label="Username"
          type="email"
          autoComplete="username"
          placeholder="name@company.com"
          readOnly={mode === 'reset'}
          aria-invalid={Boolean(errors.email) || undefined}
          {...form.register('email')}
        />
      )}
      {mode === 'login' && (
        <TextInput
          label="Password"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.password) || undefined}
          {...form.register('password')}
        />
      )}
      {mode === 'new-password' && newPasswordFields}
      {mode === 'reset' && (
        <>
          <TextInput
            label="Confirmation code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="XXXX-XXXX-XXXX"
            aria-invalid={Boolean(errors.code) || undefined}
            {...form.register('code')}
          />
          {newPasswordFields}
        </>
      )}

      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={isBusy && !SUBMIT[mode].busy}
        busy={SUBMIT[mode].busy}
        busyLabel={SUBMIT[mode].busyLabel}
      >
        {SUBMIT[mode].label}
      </Button>

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
        {mode === 'login' && appInfo.data?.passwordResetEnabled ? (
          <button type="button" className={linkButton} onClick={() => switchTo('forgot')}>
            Forgot password?
          </button>
        ) : (
          mode === 'login' && <span />
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
