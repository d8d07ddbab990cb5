import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '../../../lib/api-client';
import { useAppInfo, useLogin } from '../../../lib/session';
import { Spinner } from '../../../components/ui/spinner';

export interface LoginFormProps {
  onSignedIn: () => void;
}

/** Username (an email) and password; the status line says what is happening or what went wrong. */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [status, setStatus] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);
  const login = useLogin();
  const appInfo = useAppInfo();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') return setStatus({ kind: 'error', text: 'Username cannot be empty' });
    if (password === '') return setStatus({ kind: 'error', text: 'Password cannot be empty' });
    setStatus({ kind: 'info', text: 'Signing in…' });
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setStatus(null);
          onSignedIn();
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'already_signed_in') return onSignedIn();
          setStatus({ kind: 'error', text: error instanceof ApiRequestError ? error.message : 'Error Signing In' });
        },
      },
    );
  };

  const supportEmail = appInfo.data?.supportEmail;
  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-4">
      <div>
        <label htmlFor="login-username" className="block text-sm font-medium text-slate-700">
          Username
        </label>
        <input
          id="login-username"
          name="username"
          type="email"
          autoComplete="username"
          placeholder="name@company.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </div>
      <div>
        <label htmlFor="login-password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </div>
      <button
        type="submit"
        disabled={login.isPending}
        className="flex w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {login.isPending && <Spinner label="Signing in" className="h-4 w-4" />}
        Login
      </button>
      <p
        role={status?.kind === 'error' ? 'alert' : 'status'}
        data-testid="login-status"
        className={`min-h-5 text-sm ${status?.kind === 'error' ? 'text-red-700' : 'text-slate-600'}`}
      >
        {status?.text}
      </p>
      <div className="flex justify-between text-sm">
        <a
          href={supportEmail ? `mailto:${supportEmail}` : undefined}
          className="text-brand-700 underline hover:text-brand-800"
        >
          Need Support?
        </a>
      </div>
      {appInfo.data?.demoMode && (
        <p className="rounded-md bg-slate-100 p-3 text-xs text-slate-600">
          Demo installation: sign in as tam@demo.local, superuser@demo.local, proserv@demo.local, adoption@demo.local,
          pmo@demo.local, engineering@demo.local, support@demo.local, t3@demo.local or user@demo.local with the demo
          password.
        </p>
      )}
    </form>
  );
}
