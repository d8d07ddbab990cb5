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

/**
 * Whether the menu is open, and whether it slides over the page (below the desktop breakpoint: the page keeps its
 * width under it). Over the page it closes on navigation, on Escape (focus back on the menu button) and on a tap
 * outside it.
 */
function useMenu() {
  const [desktop, setDesktop] = useState(isDesktop);
  const [isOpen, setOpen] = useState(isDesktop);
  const { pathname } = useLocation();

  useEffect(() => {
    const query = window.matchMedia(`(min-width: ${DESKTOP_BREAKPOINT_PX}px)`);
    const handleChange = (event: MediaQueryListEvent) => {
      setDesktop(event.matches);
      setOpen(event.matches);
    };
    query.addEventListener('change', handleChange);
    return () => query.removeEventListener('change', handleChange);
  }, []);

  const overlay = !desktop && isOpen;
  const [openedAt, setOpenedAt] = useState(pathname);
  if (overlay && openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  } else if (!overlay && openedAt !== pathname) setOpenedAt(pathname);

  useEffect(() => {
    if (!overlay) return;
    const toggle = () => document.querySelector<HTMLElement>('[aria-controls="side-menu"]');
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') return keepFocusInDrawer(event, toggle());
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle()?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node)) return;
      if (document.getElementById('side-menu')?.contains(target) || toggle()?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [overlay]);

  return { isOpen, overlay, toggle: () => setOpen((open) => !open), open: () => setOpen(true) };
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * While the menu lies over the page, Tab goes round the menu and its button only (the page under it is inert):
 * from the last link back to the button, and Shift+Tab from the button to the last link.
 */
function keepFocusInDrawer(event: KeyboardEvent, toggle: HTMLElement | null): void {
  const drawer = document.getElementById('side-menu');
  if (!drawer || !toggle) return;
  const stops = [toggle, ...drawer.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const active = document.activeElement;
  const at = stops.findIndex((stop) => stop === active);
  const next = at === -1 ? 0 : (at + (event.shiftKey ? stops.length - 1 : 1)) % stops.length;
  event.preventDefault();
  stops[next]?.focus();
}

/** The guarded home area: no user -> /login (remembering where the user was going). */
export function AppShell() {
  const session = useSession();
  const location = useLocation();
  const logout = useLogout();
  const menu = useMenu();

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
        onToggleMenu={menu.toggle}
        isMenuOpen={menu.isOpen}
      />
      <div className="relative flex min-h-0 flex-1">
        <SideMenu user={user} isOpen={menu.isOpen} overlay={menu.overlay} onRequestOpen={menu.open} />
        {menu.overlay && <div aria-hidden="true" className="absolute inset-0 left-16 z-30 bg-slate-900/30" />}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the page scrolls here: the keyboard reaches it even on a page with nothing else to focus (the dashboard). */}
        <main tabIndex={0} inert={menu.overlay} className="min-w-0 flex-1 overflow-y-auto p-4 md:p-6">
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
