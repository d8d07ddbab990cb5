import { Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { DESKTOP_BREAKPOINT_PX, PATHS, USER_INFO_FAILED_MESSAGE } from '@ce/contract';
import { BudgetWaitNotice } from '../../components/ui/budget-wait-notice';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast-store';
import { WorkNotifier } from '../../features/notifications/components/work-notifier';
import { userCanOpen } from '../../lib/permissions';
import { useLogout, useSession } from '../../lib/session';
import { Navbar } from './navbar';
import { SideMenu } from './side-menu';

const isDesktop = () => window.innerWidth >= DESKTOP_BREAKPOINT_PX;

/** The guarded home area: no user -> /login (remembering where the user was going). */
export function AppShell() {
  const session = useSession();
  const location = useLocation();
  const logout = useLogout();
  const [isMenuOpen, setMenuOpen] = useState(isDesktop);

  useEffect(() => {
    const query = window.matchMedia(`(min-width: ${DESKTOP_BREAKPOINT_PX}px)`);
    const handleChange = (event: MediaQueryListEvent) => setMenuOpen(event.matches);
    query.addEventListener('change', handleChange);
    return () => query.removeEventListener('change', handleChange);
  }, []);

  // The signed-in user could not be read (the server or the network failed, not a 401): say so, and offer
  // to try again rather than sending a user who may well be signed in to the sign-in page.
  const failed = session.isError;
  useEffect(() => {
    if (failed) toast.error(USER_INFO_FAILED_MESSAGE);
  }, [failed]);

  if (session.isPending) {
    return (
      <div className="flex h-screen items-center justify-center text-brand-700">
        <Spinner label="Loading your session" className="h-8 w-8" />
      </div>
    );
  }
  const user = session.data;
  if (session.isError && user === undefined) {
    return (
      <div className="flex h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <p role="alert" className="text-lg font-semibold">
          {USER_INFO_FAILED_MESSAGE}
        </p>
        <Button variant="primary" busy={session.isFetching} onClick={() => void session.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!user) {
    if (logout.isSuccess || logout.isError) return <Navigate to={PATHS.login} replace />;
    return <Navigate to={PATHS.login} replace state={{ from: location.pathname + location.search }} />;
  }

  return (
    <div className="flex h-screen flex-col">
      <WorkNotifier />
      <Navbar
        user={user}
        isLoggingOut={logout.isPending}
        onLogout={() => logout.mutate()}
        onToggleMenu={() => setMenuOpen((open) => !open)}
        isMenuOpen={isMenuOpen}
      />
      <div className="flex min-h-0 flex-1">
        <SideMenu user={user} isOpen={isMenuOpen} onRequestOpen={() => setMenuOpen(true)} />
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the page scrolls here: the keyboard reaches it even on a page with nothing else to focus (the dashboard). */}
        <main tabIndex={0} className="min-w-0 flex-1 overflow-y-auto p-6">
          <BudgetWaitNotice page />
          {userCanOpen(user, location.pathname) ? (
            <Suspense fallback={<Spinner label="Loading the page" className="h-6 w-6" />}>
              <Outlet />
            </Suspense>
          ) : (
            <AccessDenied role={user.role} />
          )}
        </main>
      </div>
    </div>
  );
}

function AccessDenied({ role }: { role: string }) {
  return (
    <section className="mx-auto max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold">Not available for your role</h1>
      <p className="mt-2 text-sm text-slate-700">
        This page is not available to the {role} role. Ask a Super User if you need access.
      </p>
    </section>
  );
}
