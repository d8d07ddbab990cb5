import { lazy, Suspense, type JSX } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { CUSTOMER_REVIEW_ROUTE, PATHS } from '@ce/contract';
import { Spinner } from '../components/ui/spinner';
import { loadDashboard, loadShell } from './preload';

// Every page loads on first visit, the sign-in page too (the server names the page's scripts in the page it serves,
// see ROUTE_MODULES in vite.config.ts, so they download beside the first script); the shell and the dashboard load
// while the user types their password (see LoginPage).
const LoginPage = lazy(() => import('./routes/login-page').then((module) => ({ default: module.LoginPage })));
const AppShell = lazy(() => loadShell().then((module) => ({ default: module.AppShell })));
const DashboardPage = lazy(() => loadDashboard().then((module) => ({ default: module.DashboardPage })));
const reportPages = () => import('./routes/report-pages');
const AccountHealthPage = lazy(() => reportPages().then((module) => ({ default: module.AccountHealthPage })));
const DashboardsPage = lazy(() => reportPages().then((module) => ({ default: module.DashboardsPage })));
const AlertsReportPage = lazy(() => reportPages().then((module) => ({ default: module.AlertsReportPage })));
const ConfigReportPage = lazy(() => reportPages().then((module) => ({ default: module.ConfigReportPage })));
const MaintenanceWindowPage = lazy(() => reportPages().then((module) => ({ default: module.MaintenanceWindowPage })));
const MyReportsPage = lazy(() => reportPages().then((module) => ({ default: module.MyReportsPage })));
const PsClosurePage = lazy(() => reportPages().then((module) => ({ default: module.PsClosurePage })));
const TamWeeklyPage = lazy(() => reportPages().then((module) => ({ default: module.TamWeeklyPage })));
const bulkPages = () => import('./routes/bulk-pages');
const BulkTestsPage = lazy(() => bulkPages().then((module) => ({ default: module.BulkTestsPage })));
const BulkOperationsPage = lazy(() => bulkPages().then((module) => ({ default: module.BulkOperationsPage })));
const TimeTrackingPage = lazy(() =>
  import('./routes/tracker-page').then((module) => ({ default: module.TimeTrackingPage })),
);
const PcapSupportPage = lazy(() =>
  import('./routes/support-pages').then((module) => ({ default: module.PcapSupportPage })),
);
const DiagnosticToolPage = lazy(() =>
  import('./routes/support-pages').then((module) => ({ default: module.DiagnosticToolPage })),
);
const ApiToolsPage = lazy(() => import('./routes/explorer-page').then((module) => ({ default: module.ApiToolsPage })));
const AlertsMigrationPage = lazy(() =>
  import('./routes/alerts-migration-page').then((module) => ({ default: module.AlertsMigrationPage })),
);
const BackupRestorePage = lazy(() =>
  import('./routes/backup-restore-page').then((module) => ({ default: module.BackupRestorePage })),
);
const customerPages = () => import('./routes/customer-pages');
const CustomersPage = lazy(() => customerPages().then((module) => ({ default: module.CustomersPage })));
const CustomerPage = lazy(() => customerPages().then((module) => ({ default: module.CustomerPage })));
const ReviewPage = lazy(() => import('./routes/review-page').then((module) => ({ default: module.ReviewPage })));
const SettingsPage = lazy(() => import('./routes/settings-page').then((module) => ({ default: module.SettingsPage })));

const Loading = ({ label }: { label: string }) => (
  <div className="flex h-screen items-center justify-center text-brand-700">
    <Spinner label={label} className="h-8 w-8" />
  </div>
);

const relative = (path: string) => path.slice(`${PATHS.home}/`.length);

/** Every tool page of the route table. */
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
  [PATHS.dashboards]: <DashboardsPage />,
  [PATHS.timeTracking]: <TimeTrackingPage />,
  [PATHS.support]: <PcapSupportPage />,
  [PATHS.diagnosticTool]: <DiagnosticToolPage />,
  [PATHS.apiTools]: <ApiToolsPage />,
  [PATHS.alertsMigration]: <AlertsMigrationPage />,
  [PATHS.backupRestore]: <BackupRestorePage />,
  [CUSTOMER_REVIEW_ROUTE]: <ReviewPage />,
};

const toolRoutes: RouteObject[] = [
  ...Object.entries(BUILT_PAGES).map(([path, element]) => ({ path: relative(path), element })),
];

/** The route table of spec section 2: empty and unknown paths go to /login; /home is guarded. */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to={PATHS.login} replace /> },
  {
    path: PATHS.login,
    element: (
      <Suspense fallback={<Loading label="Loading the sign-in page" />}>
        <LoginPage />
      </Suspense>
    ),
  },
  {
    path: PATHS.home,
    element: (
      <Suspense fallback={<Loading label="Loading the app" />}>
        <AppShell />
      </Suspense>
    ),
    children: [
      { index: true, element: <Navigate to={PATHS.dashboard} replace /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'settings/:section', element: <SettingsPage /> },
      { path: 'customers', element: <CustomersPage /> },
      { path: 'customers/:organizationId', element: <CustomerPage /> },
      ...toolRoutes,
      { path: '*', element: <Navigate to={PATHS.login} replace /> },
    ],
  },
  { path: '*', element: <Navigate to={PATHS.login} replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
