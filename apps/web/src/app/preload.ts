import { PATHS } from '@ce/contract';

/** The code behind the sign-in page, in chunks of its own (see router.tsx). */
export const loadShell = () => import('./shell/app-shell');
export const loadDashboard = () => import('./routes/dashboard-page');

/**
 * Starts fetching what the first page needs beside the session check, instead of after it: a link to
 * /home/dashboard loads the shell and the dashboard at once.
 */
export function preloadRoute(pathname: string): void {
  if (!pathname.startsWith(PATHS.home)) return;
  void loadShell();
  if (pathname === PATHS.home || pathname.startsWith(PATHS.dashboard)) void loadDashboard();
}
