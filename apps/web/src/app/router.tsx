import { lazy, type JSX } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PATHS } from '@ce/contract';
import { TOOL_PAGES } from '../config/tool-pages';
import { DashboardPage } from './routes/dashboard-page';

import { LoginPage } from './routes/login-page';

import { ToolIntroPage } from './routes/tool-intro-page';
import { AppShell } from './shell/app-shell';

// Pages load on first visit, so signing in does not wait for every tool's code.
const reportPages = () => import('./routes/report-pages');
const AccountHealthPage = lazy(() => reportPages().then((module) => ({ default: module.AccountHealthPage })));
const AlertsReportPage = lazy(() => reportPages().then((module) => ({ default: module.AlertsReportPage })));
const ConfigReportPage = lazy(() => reportPages().then((module) => ({ default: module.ConfigReportPage })));
const MaintenanceWindowPage = lazy(() => reportPages().then((module) => ({ default: module.MaintenanceWindowPage })));
const MyReportsPage = lazy(() => reportPages().then((module) => ({ default: module.MyReportsPage })));
const PsClosurePage = lazy(() => reportPages().then((module) => ({ default: module.PsClosurePage })));
const TamWeeklyPage = lazy(() => reportPages().then((module) => ({ default: module.TamWeeklyPage })));
const bulkPages = () => import('./routes/bulk-pages');
const BulkTestsPage = lazy(() => bulkPages().then((module) => ({ default: module.BulkTestsPage })));
const BulkOperationsPage = lazy(() => bulkPages().then((module) => ({ default: module.BulkOperationsPage })));
const SettingsPage = lazy(() => import('./routes/settings-page').then((module) => ({ default: module.SettingsPage })));

const relative = (path: string) => path.slice(`${PATHS.home}/`.length);

/** Pages whose tools exist; every other page of the table shows its introduction. */
const BUILT_PAGES: Partial<Record<string, JSX.Element>> = {
  [PATHS.reports]: <MyReportsPage />,
  [PATHS.accountHealth]: <AccountHealthPage />,
  [PATHS.configReport]: <ConfigReportPage />,
  [PATHS.alertsReport]: <AlertsReportPage />,
  [PATHS.psClosureDocuments]: <PsClosurePage />,
  [PATHS.tamWeeklyReport]: <TamWeeklyPage />,
  [PATHS.tamMaintenanceWindow]: <MaintenanceWindowPage />,
  [PATHS.bulkTests]: <BulkTestsPage />,
  [PATHS.bulkOperations]: <BulkOperationsPage />,
};

const toolRoutes: RouteObject[] = [
  ...Object.entries(BUILT_PAGES).map(([path, element]) => ({ path: relative(path), element })),
  ...Object.keys(TOOL_PAGES).map((path) => ({ path: relative(path), element: <ToolIntroPage /> })),
];

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
