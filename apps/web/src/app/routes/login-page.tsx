import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PATHS, signInErrorMessage } from '@ce/contract';
import { Logo } from '../../components/ui/logo';
import { Spinner } from '../../components/ui/spinner';
import { LoginForm } from '../../features/auth/components/login-form';
import { useAppInfo, useSession } from '../../lib/session';
import { preloadRoute } from '../preload';

/** Where to go after signing in: back where the user was heading, if that was inside the app. */
function destination(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith(PATHS.home) ? from : PATHS.home;
}

export function LoginPage() {
  const session = useSession();
  // What the form offers (SSO, the reset link, the demo line) comes with app-info: the form waits for it
  // and paints once, complete, instead of growing (and shifting) as the answer arrives.
  const appInfo = useAppInfo();
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // Once the form is up, the app behind it loads while the user types.
  const formShown = !session.isPending && !appInfo.isPending && !session.data;
  useEffect(() => {
    if (!formShown) return;
    const idle = window.setTimeout(() => preloadRoute(destination(location.state)), 0);
    return () => window.clearTimeout(idle);
  }, [formShown, location.state]);

  if (session.isPending || appInfo.isPending) {
    return (
      <div className="flex h-screen items-center justify-center text-brand-700">
        <Spinner label="Loading your session" className="h-8 w-8" />
      </div>
    );
  }
  if (session.data) return <Navigate to={destination(location.state)} replace />;

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-slate-100 p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-lg">
        <div className="mb-6 flex flex-col items-center gap-2">
          <Logo className="h-12 w-12" />
          <h1 className="text-xl font-semibold text-slate-800">Sign in to CE Toolkit</h1>
        </div>
        <LoginForm
          initialError={signInErrorMessage(searchParams.get('error'))}
          onSignedIn={() => void navigate(destination(location.state), { replace: true })}
        />
      </div>
    </main>
  );
}
