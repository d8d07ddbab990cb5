import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PATHS } from '@ce/contract';
import { TOOL_PAGES } from '../config/tool-pages';
import { DashboardPage } from './routes/dashboard-page';
import { LoginPage } from './routes/login-page';
import { SettingsPage } from './routes/settings-page';
import { ToolIntroPage } from './routes/tool-intro-page';
import { AppShell } from './shell/app-shell';

const toolRoutes: RouteObject[] = Object.keys(TOOL_PAGES).map((path) => ({
  path: path.slice(`${PATHS.home}/`.length),
  element: <ToolIntroPage />,
}));

/** The route table of spec section 2: empty and unknown paths go to /login; /home is guarded. */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to={PATHS.login} replace /> },
  { path: PATHS.login, element: <LoginPage /> },
  {
    path: PATHS.home,
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to={PATHS.dashboard} replace /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'settings', element: <SettingsPage /> },
      ...toolRoutes,
      { path: '*', element: <Navigate to={PATHS.login} replace /> },
    ],
  },
  { path: '*', element: <Navigate to={PATHS.login} replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
